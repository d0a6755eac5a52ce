import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { OrderStatusBadge } from './order-status-badge';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import type { Order } from './order';

/** The caller's card top-ups: amount, where the payment stands, when it was made and paid. */
export function OwnOrdersTable({ orders }: { orders: readonly Order[] }) {
  const { t } = useTranslation();
  const columns: Column<Order>[] = [
    {
      key: 'id',
      header: t('orders.order'),
      render: (order) => (
        <Text size="xs" ff="monospace" className="break-anywhere">
          {order.id}
        </Text>
      ),
    },
    { key: 'amount', header: t('orders.amount'), align: 'right', render: (order) => formatUsd(order.amount) },
    {
      key: 'status',
      header: t('orders.status'),
      render: (order) => <OrderStatusBadge status={order.status} />,
    },
    { key: 'created', header: t('orders.created'), render: (order) => formatDateTime(order.created_at) },
    {
      key: 'paid',
      header: t('orders.paidAt'),
      render: (order) =>
        order.paid_at === null ? (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ) : (
          formatDateTime(order.paid_at)
        ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('orders.ownTitle')}
      rows={orders}
      columns={columns}
      rowKey={(order) => order.id}
      empty={t('orders.empty')}
    />
  );
}
