import { Alert, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatUsd } from '../format/format-usd';
import type { Order } from './order';
import type { CheckoutReturn } from './read-checkout-return';

/**
 * What became of the order the browser came back from Stripe with: waiting for Stripe's word,
 * paid and credited, cancelled, or expired. Nothing when the page was opened any other way.
 */
export function CheckoutReturnNotice({
  checkout,
  orders,
}: {
  checkout: CheckoutReturn;
  orders: readonly Order[] | undefined;
}) {
  const { t } = useTranslation();
  if (checkout.orderId === undefined) return null;
  const order = orders?.find((candidate) => candidate.id === checkout.orderId);
  if (!order) return null;
  if (order.status === 'paid') {
    return (
      <Alert color="teal" role="status">
        {t('topUp.paid', { amount: formatUsd(order.amount) })}
      </Alert>
    );
  }
  if (order.status === 'expired') {
    return (
      <Alert color="gray" role="status">
        {t('topUp.expired', { amount: formatUsd(order.amount) })}
      </Alert>
    );
  }
  if (checkout.cancelled) {
    return (
      <Alert color="yellow" role="status">
        {t('topUp.cancelled', { amount: formatUsd(order.amount) })}
      </Alert>
    );
  }
  return (
    <Alert color="blue" role="status">
      <Group gap="sm" wrap="nowrap">
        <Loader size="xs" aria-hidden />
        <Text size="sm">{t('topUp.waiting', { amount: formatUsd(order.amount) })}</Text>
      </Group>
    </Alert>
  );
}
