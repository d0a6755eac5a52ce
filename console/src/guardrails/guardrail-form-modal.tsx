import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import type { Guardrail } from './guardrail';
import { GuardrailForm, type GuardrailSubmission } from './guardrail-form';
import { createGuardrail, guardrailsQueryKey, updateGuardrail } from './guardrails-api';

/** Creating (`POST`) or editing (`PATCH`) a guardrail. */
export function GuardrailFormModal({
  opened,
  guardrail,
  takenNames,
  knownGroups,
  onClose,
}: {
  opened: boolean;
  guardrail: Guardrail | undefined;
  /** Every guardrail's name; the edited one's own is left out here. */
  takenNames: readonly string[];
  knownGroups: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { mutation: save, close } = useDialogSave({
    save: (submission: GuardrailSubmission) =>
      submission.kind === 'create'
        ? createGuardrail(submission.fields)
        : updateGuardrail(submission.id, submission.changes),
    invalidates: guardrailsQueryKey,
    onSaved: (saved) => notifySuccess(t('guardrails.saved', { name: saved.name })),
    onClose,
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      size="lg"
      title={guardrail ? t('guardrails.editTitle', { name: guardrail.name }) : t('guardrails.createTitle')}
    >
      {opened && (
        <GuardrailForm
          key={guardrail?.id ?? 'new'}
          {...(guardrail ? { guardrail } : {})}
          takenNames={takenNames.filter((name) => name !== guardrail?.name)}
          knownGroups={knownGroups}
          pending={save.isPending}
          error={save.error}
          onSubmit={(submission) => save.mutate(submission)}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
