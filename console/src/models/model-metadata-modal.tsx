import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { putModelMetadata } from '../api/model-metadata-api';
import { queryKeys } from '../api/query-keys';
import type { ModelMetadata, ModelMetadataFields } from '../api/types';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import { ModelMetadataForm } from './model-metadata-form';

/** Editing what is known of one model; saving replaces it whole (`PUT /api/models/{model}`). */
export function ModelMetadataModal({
  target,
  onClose,
}: {
  target: { model: string; metadata: ModelMetadata | undefined } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { mutation: save, close } = useDialogSave({
    save: ({ model, fields }: { model: string; fields: ModelMetadataFields }) =>
      putModelMetadata(model, fields),
    invalidates: queryKeys.modelMetadata,
    onSaved: () => notifySuccess(t('common.saved')),
    onClose,
  });
  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={target ? t('modelMetadata.title', { model: target.model }) : ''}
    >
      {target && (
        <ModelMetadataForm
          key={target.model}
          metadata={target.metadata}
          pending={save.isPending}
          error={save.error}
          onSubmit={(fields) => save.mutate({ model: target.model, fields })}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
