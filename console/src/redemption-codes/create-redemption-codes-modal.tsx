import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { useDialogSave } from '../components/use-dialog-save';
import type { CreatedRedemptionCode } from './redemption-code';
import { RedemptionCodeForm } from './redemption-code-form';
import { createRedemptionCodes } from './redemption-codes-api';

/** A new batch; the codes made are handed to `onCreated`, to be shown once. */
export function CreateRedemptionCodesModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (codes: CreatedRedemptionCode[]) => void;
}) {
  const { t } = useTranslation();
  const { mutation: create, close } = useDialogSave({
    save: createRedemptionCodes,
    invalidates: queryKeys.redemptionCodes,
    onSaved: onCreated,
    onClose,
  });
  return (
    <Modal opened={opened} onClose={close} title={t('redemptionCodes.createTitle')}>
      {opened && (
        <RedemptionCodeForm
          pending={create.isPending}
          error={create.error}
          onSubmit={(fields) => create.mutate(fields)}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
