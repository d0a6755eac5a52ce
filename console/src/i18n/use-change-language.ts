import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { updateOwnAccount } from '../api/auth-api';
import { errorMessage } from '../api/api-error';
import type { Language, SignedInUser } from '../api/types';
import { CURRENT_USER_KEY } from '../auth/use-current-user';
import { isRootAdmin } from '../auth/is-root-admin';
import { LANGUAGE_STORAGE_KEY } from './choose-language';

/**
 * Switches the interface language at once and keeps the choice: in the account for a user
 * (`PATCH /api/me`), in this browser for the root admin and before sign-in.
 */
export function useChangeLanguage(user: SignedInUser | null) {
  const { i18n, t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (language: Language) => updateOwnAccount({ language }),
    onSuccess: (saved) => {
      queryClient.setQueryData<SignedInUser | null>(CURRENT_USER_KEY, (current) =>
        current ? { ...current, language: saved.language } : current,
      );
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(error) }),
  });
  return (language: Language) => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    void i18n.changeLanguage(language);
    if (user && !isRootAdmin(user)) save.mutate(language);
  };
}
