import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { createKey, updateKey, type KeyScope } from '../api/keys-api';
import type { ApiKey, User } from '../api/types';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import { KeyForm, type KeySubmission } from './key-form';

/** Creating or editing a key; a created key is handed to `onCreated` to be shown once in full. */
export function KeyFormModal({
  scope,
  opened,
  apiKey,
  owners,
  defaultOwner,
  onClose,
  onCreated,
}: {
  scope: KeyScope;
  opened: boolean;
  apiKey: ApiKey | undefined;
  owners?: readonly User[];
  defaultOwner?: number;
  onClose: () => void;
  onCreated: (created: ApiKey) => void;
}) {
  const { t } = useTranslation();
  const { mutation: save, close } = useDialogSave({
    save: (submission: KeySubmission) =>
      submission.kind === 'create'
        ? createKey(scope, {
            ...submission.fields,
            ...(submission.userId === undefined ? {} : { user_id: submission.userId }),
          })
        : updateKey(scope, submission.id, submission.changes),
    invalidates: ['keys'],
    onSaved: (saved, submission) => {
      if (submission.kind === 'create') onCreated(saved);
      else notifySuccess(t('common.saved'));
    },
    onClose,
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={apiKey ? t('keys.editTitle', { name: apiKey.name || apiKey.key }) : t('keys.createTitle')}
    >
      {opened && (
        <KeyForm
          key={apiKey?.id ?? 'new'}
          scope={scope}
          {...(apiKey ? { apiKey } : {})}
          {...(owners ? { owners } : {})}
          {...(defaultOwner === undefined ? {} : { defaultOwner })}
          pending={save.isPending}
          error={save.error}
          onSubmit={(submission) => save.mutate(submission)}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
