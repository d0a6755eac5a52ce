import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { VirtualModel } from '../api/types';
import { createVirtualModel, updateVirtualModel } from '../api/virtual-models-api';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import type { TargetChoice } from './target-row-fields';
import { VirtualModelForm, type VirtualModelSubmission } from './virtual-model-form';

/** Creating (`POST`) or editing (`PATCH`) a virtual model. */
export function VirtualModelFormModal({
  opened,
  virtualModel,
  choices,
  servedModels,
  takenNames,
  onClose,
}: {
  opened: boolean;
  virtualModel: VirtualModel | undefined;
  choices: readonly TargetChoice[];
  servedModels: readonly string[];
  takenNames: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { mutation: save, close } = useDialogSave({
    save: (submission: VirtualModelSubmission) =>
      submission.kind === 'create'
        ? createVirtualModel(submission.fields)
        : updateVirtualModel(submission.name, submission.changes),
    invalidates: queryKeys.virtualModels,
    onSaved: (saved) => notifySuccess(t('virtualModels.saved', { name: saved.name })),
    onClose,
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      size="lg"
      title={
        virtualModel
          ? t('virtualModels.editTitle', { name: virtualModel.name })
          : t('virtualModels.createTitle')
      }
    >
      {opened && (
        <VirtualModelForm
          key={virtualModel?.name ?? 'new'}
          {...(virtualModel ? { virtualModel } : {})}
          choices={choices}
          servedModels={servedModels}
          takenNames={takenNames}
          pending={save.isPending}
          error={save.error}
          onSubmit={(submission) => save.mutate(submission)}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
