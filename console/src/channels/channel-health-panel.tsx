import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchChannelHealth, fetchChannelStats } from '../api/channels-api';
import { queryKeys } from '../api/query-keys';
import type { Channel, ChannelHealth, ChannelStats } from '../api/types';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { formatCount, formatMilliseconds, formatPercent } from '../format/format-number';
import { formatDateTime } from '../format/format-time';

type ModelRow = ChannelHealth['data'][number] & { stats: ChannelStats['models'][number] | undefined };

/**
 * Per-model health of one channel (`/health`: cooling down, probing) beside its success rate and
 * latency over the last 24 hours (`/stats`), and the state of each upstream key.
 */
export function ChannelHealthPanel({ channel }: { channel: Channel }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const health = useQuery({
    queryKey: queryKeys.channelHealth(channel.id),
    queryFn: () => fetchChannelHealth(channel.id),
    refetchInterval: 15_000,
  });
  const stats = useQuery({
    queryKey: ['channels', channel.id, 'stats'],
    queryFn: () => fetchChannelStats(channel.id),
  });
  const title = t('channels.healthTitle', { name: channel.name });
  const panel = useRef<HTMLDivElement>(null);
  // Opened from a row that may be far above: brought into view.
  // A block body: newer browsers' scrollIntoView returns a promise, which React would call on clean-up.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [channel.id]);
  const columns: Column<ModelRow>[] = [
    { key: 'model', header: t('channels.model'), render: (row) => row.model },
    { key: 'state', header: t('channels.state'), render: (row) => <StatusBadge status={row.state} /> },
    { key: 'failures', header: t('channels.failures'), align: 'right', render: (row) => row.failures },
    {
      key: 'until',
      header: t('channels.until'),
      render: (row) => (row.until === null ? '—' : formatDateTime(row.until)),
    },
    {
      key: 'requests',
      header: t('channels.requests24h'),
      align: 'right',
      render: (row) => formatCount(row.stats?.requests ?? 0, language),
    },
    {
      key: 'success',
      header: t('channels.successRate24h'),
      align: 'right',
      render: (row) =>
        row.stats?.success_rate === null || row.stats === undefined
          ? '—'
          : formatPercent(row.stats.success_rate, language),
    },
    {
      key: 'latency',
      header: t('channels.latency24h'),
      align: 'right',
      render: (row) =>
        row.stats?.avg_latency_ms === null || row.stats === undefined
          ? '—'
          : formatMilliseconds(row.stats.avg_latency_ms, language),
    },
  ];
  return (
    <Paper withBorder p="md" radius="md" ref={panel}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <QueryState query={health}>
          {(report) => (
            <Stack gap="sm">
              <ResponsiveTable
                label={title}
                rows={report.data.map((row) => ({
                  ...row,
                  stats: stats.data?.models.find((model) => model.model === row.model),
                }))}
                columns={columns}
                rowKey={(row) => row.model}
                empty={t('channels.noModels')}
              />
              {report.keys.length > 0 && (
                <Text size="sm">
                  {report.keys.map((key) => (
                    <span key={key.index} className="key-state">
                      {t('channels.keyIndex')} {key.index + 1}: <StatusBadge status={key.state} />
                    </span>
                  ))}
                </Text>
              )}
            </Stack>
          )}
        </QueryState>
      </Stack>
    </Paper>
  );
}
