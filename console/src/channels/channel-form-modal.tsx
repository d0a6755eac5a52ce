import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { createChannel, updateChannel } from '../api/channels-api';
import { queryKeys } from '../api/query-keys';
import type { Channel } from '../api/types';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import { ChannelForm, type ChannelSubmission } from './channel-form';

/** Creating (no `channel`) or editing a channel in a dialog; closes once the gateway accepted it. */
export function ChannelFormModal({
  opened,
  channel,
  onClose,
}: {
  opened: boolean;
  channel: Channel | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { mutation: save, close } = useDialogSave({
    save: (submission: ChannelSubmission) =>
      submission.kind === 'create'
        ? createChannel(submission.fields)
        : updateChannel(submission.id, submission.changes),
    invalidates: queryKeys.channels,
    onSaved: (saved) =>
      notifySuccess(channel ? t('common.saved') : `${t('channels.created')}: ${saved.name}`),
    onClose,
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={channel ? t('channels.editTitle', { name: channel.name }) : t('channels.createTitle')}
      size="lg"
      fullScreen={false}
    >
      {opened && (
        <ChannelForm
          key={channel?.id ?? 'new'}
          {...(channel ? { channel } : {})}
          pending={save.isPending}
          error={save.error}
          onSubmit={(submission) => save.mutate(submission)}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
