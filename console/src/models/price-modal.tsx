import { Modal } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putPrice } from '../api/prices-api';
import { queryKeys } from '../api/query-keys';
import type { Price, PriceFields } from '../api/types';
import { notifySuccess } from '../components/notify';
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
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: ({ model, fields }: { model: string; fields: PriceFields }) => putPrice(model, fields),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.prices });
      notifySuccess(t('common.saved'));
      close();
    },
  });
  const close = () => {
    save.reset();
    onClose();
  };
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
