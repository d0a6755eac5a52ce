import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { putPrice } from '../api/prices-api';
import { queryKeys } from '../api/query-keys';
import type { Price, PriceFields } from '../api/types';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import { PriceForm } from './price-form';

/** Setting the price of one model (`model` given) or of a model the admin names. */
export function PriceModal({
  target,
  onClose,
}: {
  target: { model: string | undefined; price: Price | undefined } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { mutation: save, close } = useDialogSave({
    save: ({ model, fields }: { model: string; fields: PriceFields }) => putPrice(model, fields),
    invalidates: queryKeys.prices,
    onSaved: () => notifySuccess(t('common.saved')),
    onClose,
  });
  const title = target?.model ? t('models.priceTitle', { model: target.model }) : t('models.otherModel');
  return (
    <Modal opened={target !== null} onClose={close} title={title}>
      {target && (
        <PriceForm
          {...(target.model === undefined ? {} : { model: target.model })}
          price={target.price}
          pending={save.isPending}
          error={save.error}
          onSubmit={(model, fields) => save.mutate({ model, fields })}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
