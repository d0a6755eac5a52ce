import { Code, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { formatDateTime } from '../format/format-time';
import type { Order, OrderEvent } from '../topup/order';
import { useOrderEventLabel } from './use-order-event-label';

/** An order's history: its Checkout Session, each webhook, each check with Stripe, the credit. */
export function OrderEventsModal({ order, onClose }: { order: Order | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const eventLabel = useOrderEventLabel();
  const dash = (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
  const columns: Column<OrderEvent>[] = [
    { key: 'time', header: t('orders.eventTime'), render: (event) => formatDateTime(event.at) },
    { key: 'type', header: t('orders.eventType'), render: (event) => eventLabel(event.type) },
    {
      key: 'reference',
      header: t('orders.eventReference'),
      render: (event) =>
        event.reference === null ? (
          dash
        ) : (
          <Text size="xs" ff="monospace" className="break-anywhere">
            {event.reference}
          </Text>
        ),
    },
    {
      key: 'detail',
      header: t('orders.eventDetails'),
      render: (event) =>
        event.detail === null || Object.keys(event.detail).length === 0 ? (
          dash
        ) : (
          <Code className="code-block">{JSON.stringify(event.detail)}</Code>
        ),
    },
  ];
  return (
    <Modal
      opened={order !== undefined}
      onClose={onClose}
      size="xl"
      title={t('orders.eventsTitle', { id: order?.id ?? '' })}
    >
      {order && (
        <ResponsiveTable
          label={t('orders.eventsTitle', { id: order.id })}
          rows={(order.events ?? []).map((event, index) => ({ ...event, index }))}
          columns={columns}
          rowKey={(event) => event.index}
          empty={t('orders.noEvents')}
        />
      )}
    </Modal>
  );
}
