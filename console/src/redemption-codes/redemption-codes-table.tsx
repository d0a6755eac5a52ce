import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '../api/types';
import { ButtonWithDisabledReason } from '../components/button-with-disabled-reason';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import type { RedemptionCode } from './redemption-code';

/** The codes, masked, with their state and who used them; unused ones can be disabled (and enabled again), any deleted. */
export function RedemptionCodesTable({
  codes,
  users,
  busy,
  onSetStatus,
  onDelete,
}: {
  codes: readonly RedemptionCode[];
  users: readonly User[] | undefined;
  busy: boolean;
  onSetStatus: (code: RedemptionCode, status: 'disabled' | 'unused') => void;
  onDelete: (code: RedemptionCode) => void;
}) {
  const { t } = useTranslation();
  const usernames = new Map((users ?? []).map((user) => [user.id, user.username]));
  const dash = (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
  const columns: Column<RedemptionCode>[] = [
    {
      key: 'code',
      header: t('redemptionCodes.code'),
      render: (code) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" ff="monospace" className="break-anywhere">
            {code.code}
          </Text>
          {code.name !== null && code.name !== '' && (
            <Text size="xs" c="dimmed" className="break-anywhere">
              {code.name}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'amount',
      header: t('redemptionCodes.amount'),
      align: 'right',
      render: (code) => formatUsd(code.amount),
    },
    {
      key: 'status',
      header: t('redemptionCodes.status'),
      render: (code) => <StatusBadge status={code.status} />,
    },
    {
      key: 'expires',
      header: t('redemptionCodes.expiresAt'),
      render: (code) => (code.expires_at === null ? t('common.never') : formatDateTime(code.expires_at)),
    },
    {
      key: 'usedBy',
      header: t('redemptionCodes.usedBy'),
      render: (code) =>
        code.used_by === null ? (
          dash
        ) : (
          <Text size="sm">
            {usernames.get(code.used_by) ?? ''}{' '}
            <Text span c="dimmed" size="xs">
              #{code.used_by}
            </Text>
          </Text>
        ),
    },
    {
      key: 'usedAt',
      header: t('redemptionCodes.usedAt'),
      render: (code) => (code.used_at === null ? dash : formatDateTime(code.used_at)),
    },
    {
      key: 'created',
      header: t('redemptionCodes.created'),
      render: (code) => formatDateTime(code.created_at),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (code) => (
        <Group gap={4} justify="flex-end" wrap="wrap">
          {code.status === 'disabled' ? (
            <ButtonWithDisabledReason size="xs" variant="light" onClick={() => onSetStatus(code, 'unused')}>
              {t('common.enable')}
            </ButtonWithDisabledReason>
          ) : (
            <ButtonWithDisabledReason
              size="xs"
              variant="light"
              disabledReason={code.status === 'unused' ? undefined : t('redemptionCodes.onlyUnused')}
              onClick={() => onSetStatus(code, 'disabled')}
            >
              {t('common.disable')}
            </ButtonWithDisabledReason>
          )}
          <ConfirmDeleteButton name={code.code} pending={busy} onConfirm={() => onDelete(code)} />
        </Group>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.redemptionCodes')}
      rows={codes}
      columns={columns}
      rowKey={(code) => code.id}
      empty={t('redemptionCodes.empty')}
    />
  );
}
