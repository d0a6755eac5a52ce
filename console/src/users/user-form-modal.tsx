import { Modal } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { User } from '../api/types';
import { createUser, updateUser } from '../api/users-api';
import { notifySuccess } from '../components/notify';
import { UserForm, type UserSubmission } from './user-form';

export function UserFormModal({
  opened,
  user,
  onClose,
}: {
  opened: boolean;
  user: User | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (submission: UserSubmission) =>
      submission.kind === 'create'
        ? createUser(submission.fields)
        : updateUser(submission.id, submission.changes),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
      notifySuccess(t('common.saved'));
      close();
    },
  });
  const close = () => {
    save.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={user ? t('users.editTitle', { name: user.username }) : t('users.createTitle')}
    >
      {opened && (
        <UserForm
          key={user?.id ?? 'new'}
          {...(user ? { user } : {})}
          pending={save.isPending}
          error={save.error}
          onSubmit={(submission) => save.mutate(submission)}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
