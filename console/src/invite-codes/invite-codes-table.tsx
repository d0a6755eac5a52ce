import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '../api/types';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { formatDateTime } from '../format/format-time';
import type { InviteCode } from './invite-code';

/** The invite codes, masked, with who registered with each. */
export function InviteCodesTable({
  codes,
  users,
  deleting,
  onDelete,
}: {
  codes: readonly InviteCode[];
  users: readonly User[] | undefined;
  deleting: boolean;
  onDelete: (code: InviteCode) => void;
}) {
  const { t } = useTranslation();
  const usernames = new Map((users ?? []).map((user) => [user.id, user.username]));
  const dash = (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
  const columns: Column<InviteCode>[] = [
    {
      key: 'code',
      header: t('inviteCodes.code'),
      render: (code) => (
        <Text size="sm" ff="monospace" className="break-anywhere">
          {code.code}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('inviteCodes.status'),
      render: (code) => <StatusBadge status={code.status} />,
    },
    {
      key: 'usedBy',
      header: t('inviteCodes.usedBy'),
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
      header: t('inviteCodes.usedAt'),
      render: (code) => (code.used_at === null ? dash : formatDateTime(code.used_at)),
    },
    { key: 'created', header: t('inviteCodes.created'), render: (code) => formatDateTime(code.created_at) },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (code) => (
        <ConfirmDeleteButton name={code.code} pending={deleting} onConfirm={() => onDelete(code)} />
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.inviteCodes')}
      rows={codes}
      columns={columns}
      rowKey={(code) => code.id}
      empty={t('inviteCodes.empty')}
    />
  );
}
