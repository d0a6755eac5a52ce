import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UsageLog } from '../api/types';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { formatCount } from '../format/format-number';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import { LogModelCell } from './log-model-cell';
import type { LogNames } from './log-names';
import { LogStatusBadge } from './log-status-badge';
import { useLogAudioText } from './use-log-audio-text';
import { useLogLatencyText } from './use-log-latency-text';

/** Usage records, each with a button opening its details; user and channel columns for admins (`name` callbacks given). */
export function LogsTable({
  logs,
  userName,
  keyName,
  channelName,
  onOpen,
}: { logs: readonly UsageLog[]; onOpen: (log: UsageLog) => void } & LogNames) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const latencyText = useLogLatencyText();
  const audioText = useLogAudioText();
  const columns: Column<UsageLog>[] = [
    { key: 'time', header: t('logs.time'), render: (log) => formatDateTime(log.created_at) },
    ...(userName
      ? [{ key: 'user', header: t('logs.user'), render: (log: UsageLog) => userName(log.user_id) }]
      : []),
    { key: 'key', header: t('logs.key'), render: (log) => keyName(log.key_id) },
    ...(channelName
      ? [
          {
            key: 'channel',
            header: t('logs.channel'),
            render: (log: UsageLog) => channelName(log.channel_id),
          },
        ]
      : []),
    { key: 'model', header: t('logs.model'), render: (log) => <LogModelCell log={log} /> },
    {
      key: 'endpoint',
      header: t('logs.endpoint'),
      render: (log) => `${log.endpoint}${log.stream ? ` · ${t('logs.stream')}` : ''}`,
    },
    {
      key: 'status',
      header: t('logs.status'),
      render: (log) => <LogStatusBadge code={log.status_code} />,
    },
    {
      key: 'tokens',
      header: t('logs.tokens'),
      align: 'right',
      render: (log) => {
        const audio = audioText(log);
        return (
          <Stack gap={0} align="flex-end">
            <Text
              size="sm"
              title={`${t('logs.cached')}: ${log.cached_tokens}, ${t('logs.reasoning')}: ${log.reasoning_tokens}`}
            >
              {formatCount(log.prompt_tokens, language)} / {formatCount(log.completion_tokens, language)}
            </Text>
            {audio !== undefined && (
              <Text size="xs" c="dimmed">
                {audio}
              </Text>
            )}
          </Stack>
        );
      },
    },
    { key: 'cost', header: t('logs.cost'), align: 'right', render: (log) => formatUsd(log.cost) },
    {
      key: 'latency',
      header: t('logs.latency'),
      align: 'right',
      render: (log) => latencyText(log),
    },
    {
      key: 'error',
      header: t('logs.error'),
      render: (log) => (
        <Text size="xs" c={log.error ? 'red' : 'dimmed'} className="break-anywhere">
          {log.error ?? '—'}
        </Text>
      ),
    },
    {
      key: 'details',
      header: t('common.actions'),
      render: (log) => (
        <Button
          size="xs"
          variant="light"
          aria-label={t('logs.detailsOf', { id: log.request_id })}
          onClick={() => onOpen(log)}
        >
          {t('logs.details')}
        </Button>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.logs')}
      rows={logs}
      columns={columns}
      rowKey={(log) => log.id}
      empty={t('logs.noLogs')}
    />
  );
}
