import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteKey, updateKey, type KeyScope } from '../api/keys-api';
import type { ApiKey } from '../api/types';
import { LimitLines } from '../budgets/limit-lines';
import { spendLimitLines } from '../budgets/spend-limit-lines';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { notifyError } from '../components/notify';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { formatCount } from '../format/format-number';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';

/** Keys with every attribute; edit, enable or disable, delete, and show the budgets' usage. */
export function KeysTable({
  scope,
  keys,
  ownerName,
  onEdit,
  usage,
}: {
  scope: KeyScope;
  keys: readonly ApiKey[];
  /** Admins: names the owner column. */
  ownerName?: (userId: number) => string;
  onEdit: (apiKey: ApiKey) => void;
  /** Admins: the key whose usage is shown, and the button that shows or hides it. */
  usage?: { shownFor: number | null; onToggle: (apiKey: ApiKey) => void };
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['keys'] });
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'enabled' | 'disabled' }) =>
      updateKey(scope, id, { status }),
    onSuccess: refresh,
    onError: (error) => notifyError(t('common.error'), error),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteKey(scope, id),
    onSuccess: refresh,
    onError: (error) => notifyError(t('common.error'), error),
  });
  const limits = (apiKey: ApiKey): string[] =>
    [
      apiKey.group === null ? undefined : `${t('keys.group')}: ${apiKey.group}`,
      apiKey.rpm === null ? undefined : `${t('keys.rpm')}: ${formatCount(apiKey.rpm, i18n.language)}`,
      apiKey.tpm === null ? undefined : `${t('keys.tpm')}: ${formatCount(apiKey.tpm, i18n.language)}`,
      apiKey.model_limits === null
        ? undefined
        : `${t('keys.modelLimits')}: ${apiKey.model_limits.join(', ')}`,
      apiKey.ip_allow_list === null
        ? undefined
        : `${t('keys.ipAllowList')}: ${apiKey.ip_allow_list.join(', ')}`,
      ...spendLimitLines(apiKey, { t, language: i18n.language }),
    ].filter((line): line is string => line !== undefined);
  const columns: Column<ApiKey>[] = [
    {
      key: 'name',
      header: t('keys.name'),
      render: (apiKey) => (
        <Text size="sm" fw={500} className="break-anywhere">
          {apiKey.name || '—'}{' '}
          <Text span c="dimmed" size="xs">
            #{apiKey.id}
          </Text>
        </Text>
      ),
    },
    ...(ownerName
      ? [{ key: 'user', header: t('keys.user'), render: (apiKey: ApiKey) => ownerName(apiKey.user_id) }]
      : []),
    {
      key: 'key',
      header: t('keys.key'),
      render: (apiKey) => (
        <Text size="sm" ff="monospace" className="break-anywhere">
          {apiKey.key}
        </Text>
      ),
    },
    { key: 'status', header: t('keys.status'), render: (apiKey) => <StatusBadge status={apiKey.status} /> },
    {
      key: 'quota',
      header: t('keys.quota'),
      align: 'right',
      render: (apiKey) => (apiKey.unlimited_quota ? t('common.unlimited') : formatUsd(apiKey.quota)),
    },
    {
      key: 'used',
      header: t('keys.usedQuota'),
      align: 'right',
      render: (apiKey) => formatUsd(apiKey.used_quota),
    },
    {
      key: 'expires',
      header: t('keys.expiresAt'),
      render: (apiKey) =>
        apiKey.expires_at === null ? t('common.never') : formatDateTime(apiKey.expires_at),
    },
    {
      key: 'limits',
      header: t('keys.limits'),
      render: (apiKey) => <LimitLines lines={limits(apiKey)} />,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (apiKey) => (
        <Group gap={4} wrap="wrap">
          <Button size="xs" variant="light" onClick={() => onEdit(apiKey)}>
            {t('common.edit')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color={apiKey.status === 'disabled' ? 'green' : 'gray'}
            onClick={() =>
              setStatus.mutate({
                id: apiKey.id,
                status: apiKey.status === 'disabled' ? 'enabled' : 'disabled',
              })
            }
          >
            {apiKey.status === 'disabled' ? t('common.enable') : t('common.disable')}
          </Button>
          {usage && apiKey.budgets.length > 0 && (
            <Button
              size="xs"
              variant="light"
              onClick={() => usage.onToggle(apiKey)}
              aria-expanded={usage.shownFor === apiKey.id}
            >
              {usage.shownFor === apiKey.id ? t('budgets.hideUsage') : t('budgets.usage')}
            </Button>
          )}
          <ConfirmDeleteButton
            name={apiKey.name || apiKey.key}
            pending={remove.isPending}
            onConfirm={() => remove.mutate(apiKey.id)}
          />
        </Group>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.keys')}
      rows={keys}
      columns={columns}
      rowKey={(apiKey) => apiKey.id}
      empty={t('keys.noKeys')}
    />
  );
}
