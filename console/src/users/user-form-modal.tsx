import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { User } from '../api/types';
import { createUser, updateUser } from '../api/users-api';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
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
  const { mutation: save, close } = useDialogSave({
    save: (submission: UserSubmission) =>
      submission.kind === 'create'
        ? createUser(submission.fields)
        : updateUser(submission.id, submission.changes),
    invalidates: queryKeys.users,
    onSaved: () => notifySuccess(t('common.saved')),
    onClose,
  });
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
