import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UsageLog } from '../api/types';
import { formatCount } from '../format/format-number';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import { LogModelCell } from './log-model-cell';
import type { LogNames } from './log-names';
import { LogStatusBadge } from './log-status-badge';
import { useLogAudioText } from './use-log-audio-text';
import { useLogLatencyText } from './use-log-latency-text';

/** One record's attributes, a labelled line each; user and channel for admins (`name` callbacks given). */
export function LogDetailFields({ log, userName, keyName, channelName }: { log: UsageLog } & LogNames) {
  const { t, i18n } = useTranslation();
  const count = (value: number) => formatCount(value, i18n.language);
  const latencyText = useLogLatencyText();
  const audio = useLogAudioText()(log);
  const lines: { label: string; value: ReactNode }[] = [
    { label: t('logs.requestId'), value: log.request_id },
    { label: t('logs.time'), value: formatDateTime(log.created_at) },
    ...(userName ? [{ label: t('logs.user'), value: userName(log.user_id) }] : []),
    { label: t('logs.key'), value: keyName(log.key_id) },
    ...(channelName ? [{ label: t('logs.channel'), value: channelName(log.channel_id) }] : []),
    { label: t('logs.model'), value: <LogModelCell log={log} /> },
    { label: t('logs.endpoint'), value: `${log.endpoint}${log.stream ? ` · ${t('logs.stream')}` : ''}` },
    { label: t('logs.status'), value: <LogStatusBadge code={log.status_code} /> },
    { label: t('logs.tokens'), value: `${count(log.prompt_tokens)} / ${count(log.completion_tokens)}` },
    {
      label: `${t('logs.cached')} / ${t('logs.cacheWrite')} / ${t('logs.reasoning')}`,
      value: `${count(log.cached_tokens)} / ${count(log.cache_write_tokens)} / ${count(log.reasoning_tokens)}`,
    },
    ...(audio !== undefined ? [{ label: t('logs.audio'), value: audio }] : []),
    { label: t('logs.cost'), value: formatUsd(log.cost) },
    { label: t('logs.latency'), value: latencyText(log) },
    {
      label: t('logs.error'),
      value: (
        <Text size="sm" c={log.error ? 'red' : 'dimmed'}>
          {log.error ?? '—'}
        </Text>
      ),
    },
  ];
  return (
    <Table variant="vertical" layout="fixed" withTableBorder verticalSpacing={6}>
      <Table.Tbody>
        {lines.map(({ label, value }) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w="38%">
              {label}
            </Table.Th>
            <Table.Td className="break-anywhere">{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
