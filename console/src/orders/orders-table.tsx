import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '../api/types';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { OrderStatusBadge } from '../topup/order-status-badge';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import type { Order } from '../topup/order';

/** Every user's card top-ups, each with its Stripe session and a button to its events. */
export function OrdersTable({
  orders,
  users,
  onShowEvents,
}: {
  orders: readonly Order[];
  users: readonly User[] | undefined;
  onShowEvents: (order: Order) => void;
}) {
  const { t } = useTranslation();
  const usernames = new Map((users ?? []).map((user) => [user.id, user.username]));
  const dash = (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
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
    {
      key: 'user',
      header: t('orders.user'),
      render: (order) =>
        order.user_id === null ? (
          <Text size="sm" c="dimmed">
            {t('orders.userGone')}
          </Text>
        ) : (
          <Text size="sm" className="break-anywhere">
            {usernames.get(order.user_id) ?? ''}{' '}
            <Text span c="dimmed" size="xs">
              #{order.user_id}
            </Text>
          </Text>
        ),
    },
    { key: 'amount', header: t('orders.amount'), align: 'right', render: (order) => formatUsd(order.amount) },
    {
      key: 'status',
      header: t('orders.status'),
      render: (order) => (
        <Stack gap={2} align="flex-start">
          <OrderStatusBadge status={order.status} />
          {order.problem && (
            <Text size="xs" c="red" className="break-anywhere">
              {order.problem}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'reference',
      header: t('orders.providerRef'),
      render: (order) =>
        order.provider_ref === null ? (
          dash
        ) : (
          <Text size="xs" ff="monospace" className="break-anywhere">
            {order.provider_ref}
          </Text>
        ),
    },
    { key: 'created', header: t('orders.created'), render: (order) => formatDateTime(order.created_at) },
    {
      key: 'paid',
      header: t('orders.paidAt'),
      render: (order) => (order.paid_at === null ? dash : formatDateTime(order.paid_at)),
    },
    {
      key: 'events',
      header: t('orders.events'),
      render: (order) => (
        <Button size="xs" variant="light" onClick={() => onShowEvents(order)}>
          {t('orders.showEvents', { count: order.events?.length ?? 0 })}
        </Button>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.orders')}
      rows={orders}
      columns={columns}
      rowKey={(order) => order.id}
      empty={t('orders.emptyAll')}
    />
  );
}
