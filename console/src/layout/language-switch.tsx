import { useTranslation } from 'react-i18next';
import type { SignedInUser } from '../api/types';
import { ToggleButtons } from '../components/toggle-buttons';
import { SUPPORTED_LANGUAGES } from '../i18n/supported-languages';
import { useChangeLanguage } from '../i18n/use-change-language';

/** English / 简体中文, each option named in its own language. */
export function LanguageSwitch({ user }: { user: SignedInUser | null }) {
  const { t, i18n } = useTranslation();
  const changeLanguage = useChangeLanguage(user);
  return (
    <ToggleButtons
      label={t('header.language')}
      labelClassName="language-label"
      value={i18n.language}
      onChange={changeLanguage}
      options={SUPPORTED_LANGUAGES.map((language) => ({
        value: language,
        label: t(`languages.${language}`),
      }))}
    />
  );
}
