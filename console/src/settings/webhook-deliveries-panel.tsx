import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { WebhookDelivery } from '../api/types';
import { listWebhookDeliveries } from '../api/webhooks-api';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { formatDateTime } from '../format/format-time';

const SHOWN = 20;

/** The newest events of the webhook outbox and how their delivery stands (admin-api section 10.1). */
export function WebhookDeliveriesPanel() {
  const { t } = useTranslation();
  const deliveries = useQuery({
    queryKey: queryKeys.webhookDeliveries,
    queryFn: () => listWebhookDeliveries(SHOWN),
  });
  const columns: Column<WebhookDelivery>[] = [
    {
      key: 'type',
      header: t('webhooks.type'),
      render: (delivery) => (
        <Text size="sm" ff="monospace" className="break-anywhere">
          {delivery.type}
        </Text>
      ),
    },
    {
      key: 'created',
      header: t('webhooks.createdAt'),
      render: (delivery) => formatDateTime(delivery.created_at),
    },
    {
      key: 'attempts',
      header: t('webhooks.attempts'),
      align: 'right',
      render: (delivery) => delivery.attempts,
    },
    {
      key: 'status',
      header: t('webhooks.status'),
      render: (delivery) => <StatusBadge status={delivery.status} />,
    },
    {
      key: 'code',
      header: t('webhooks.lastStatusCode'),
      align: 'right',
      render: (delivery) => delivery.last_status_code ?? '—',
    },
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t('webhooks.deliveries')}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={2} size="h4">
            {t('webhooks.deliveries')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('webhooks.deliveriesHint')}
          </Text>
        </div>
        <Button
          size="xs"
          variant="default"
          loading={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          {t('common.refresh')}
        </Button>
      </Group>
      <QueryState query={deliveries}>
        {(rows) => (
          <ResponsiveTable
            label={t('webhooks.deliveries')}
            rows={rows}
            columns={columns}
            rowKey={(delivery) => delivery.id}
            empty={t('webhooks.noDeliveries')}
          />
        )}
      </QueryState>
    </Paper>
  );
}
