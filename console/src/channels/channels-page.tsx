import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteChannel, updateChannel } from '../api/channels-api';
import { queryKeys } from '../api/query-keys';
import type { Channel } from '../api/types';
import { ButtonWithDisabledReason } from '../components/button-with-disabled-reason';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { notifyError } from '../components/notify';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { ManagedBadge } from '../config-file/managed-badge';
import { useManagedByConfig } from '../config-file/use-managed-by-config';
import { formatCount, formatMilliseconds, formatPercent } from '../format/format-number';
import { ChannelFormModal } from './channel-form-modal';
import { ChannelHealthPanel } from './channel-health-panel';
import { ChannelTestButton } from './channel-test-button';
import { useChannelTraffic } from './use-channel-traffic';
import { useChannels } from './use-channels';

type Editing = { channel: Channel | undefined } | null;

/**
 * Every channel with its status and last day's traffic; create, edit, test, enable, delete. A
 * channel the configuration file manages is only read and tested here.
 */
export function ChannelsPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const channels = useChannels();
  const traffic = useChannelTraffic();
  const queryClient = useQueryClient();
  const { writeBlockedBy } = useManagedByConfig();
  const [editing, setEditing] = useState<Editing>(null);
  const [healthOf, setHealthOf] = useState<number | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.channels });
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'enabled' | 'disabled' }) =>
      updateChannel(id, { status }),
    onSuccess: refresh,
    onError: (error) => notifyError(t('common.error'), error),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteChannel(id),
    onSuccess: refresh,
    onError: (error) => notifyError(t('common.error'), error),
  });
  const columns: Column<Channel>[] = [
    {
      key: 'name',
      header: t('channels.name'),
      render: (channel) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={500} className="break-anywhere">
            {channel.name}{' '}
            <Text span c="dimmed" size="xs">
              #{channel.id}
            </Text>
          </Text>
          <ManagedBadge managed={channel.managed} />
        </Stack>
      ),
    },
    { key: 'type', header: t('channels.type'), render: (channel) => channel.type },
    {
      key: 'status',
      header: t('channels.status'),
      render: (channel) => <StatusBadge status={channel.status} />,
    },
    {
      key: 'models',
      header: t('channels.models'),
      render: (channel) => (
        <Text size="sm" className="break-anywhere">
          {channel.models.join(', ') || '—'}
        </Text>
      ),
    },
    {
      key: 'priority',
      header: `${t('channels.priority')} / ${t('channels.weight')}`,
      align: 'right',
      render: (channel) => `${channel.priority} / ${channel.weight}`,
    },
    {
      key: 'requests',
      header: t('channels.requests24h'),
      align: 'right',
      render: (channel) => formatCount(traffic.get(channel.id)?.requests ?? 0, language),
    },
    {
      key: 'success',
      header: t('channels.successRate24h'),
      align: 'right',
      render: (channel) => {
        const figures = traffic.get(channel.id);
        return figures && figures.requests > 0 ? formatPercent(1 - figures.errorRate, language) : '—';
      },
    },
    {
      key: 'latency',
      header: t('channels.latency24h'),
      align: 'right',
      render: (channel) => {
        const latency = traffic.get(channel.id)?.latencyMs;
        return latency === undefined || latency === null ? '—' : formatMilliseconds(latency, language);
      },
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (channel) => (
        <Stack gap={4} align="flex-end">
          <Group gap={4} justify="flex-end" wrap="wrap">
            <ButtonWithDisabledReason
              size="xs"
              variant="light"
              disabledReason={writeBlockedBy(channel.managed)}
              onClick={() => setEditing({ channel })}
            >
              {t('common.edit')}
            </ButtonWithDisabledReason>
            <ButtonWithDisabledReason
              size="xs"
              variant="light"
              color={channel.status === 'enabled' ? 'gray' : 'green'}
              disabledReason={writeBlockedBy(channel.managed)}
              onClick={() =>
                setStatus.mutate({
                  id: channel.id,
                  status: channel.status === 'enabled' ? 'disabled' : 'enabled',
                })
              }
            >
              {channel.status === 'enabled' ? t('common.disable') : t('common.enable')}
            </ButtonWithDisabledReason>
            <Button
              size="xs"
              variant="light"
              onClick={() => setHealthOf(healthOf === channel.id ? null : channel.id)}
              aria-expanded={healthOf === channel.id}
            >
              {healthOf === channel.id ? t('channels.hideHealth') : t('channels.health')}
            </Button>
            <ConfirmDeleteButton
              name={channel.name}
              disabledReason={writeBlockedBy(channel.managed)}
              pending={remove.isPending}
              onConfirm={() => remove.mutate(channel.id)}
            />
          </Group>
          <ChannelTestButton channelId={channel.id} />
        </Stack>
      ),
    },
  ];
  const shownHealth = channels.data?.find((channel) => channel.id === healthOf);
  return (
    <>
      <PageHeader
        title={t('nav.channels')}
        description={t('channels.description')}
        actions={<Button onClick={() => setEditing({ channel: undefined })}>{t('channels.create')}</Button>}
      />
      <Stack gap="md">
        <QueryState query={channels}>
          {(rows) => (
            <ResponsiveTable
              label={t('nav.channels')}
              rows={rows}
              columns={columns}
              rowKey={(channel) => channel.id}
              empty={t('common.empty')}
            />
          )}
        </QueryState>
        {shownHealth && <ChannelHealthPanel channel={shownHealth} />}
      </Stack>
      <ChannelFormModal
        opened={editing !== null}
        channel={editing?.channel}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
