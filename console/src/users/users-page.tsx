import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { User } from '../api/types';
import { deleteUser } from '../api/users-api';
import { BudgetUsagePanel } from '../budgets/budget-usage-panel';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { notifyError } from '../components/notify';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { formatUsd } from '../format/format-usd';
import { UserLimits } from './user-limits';
import { TopUpModal } from './top-up-modal';
import { UserFormModal } from './user-form-modal';
import { useUsers } from './use-users';

export function UsersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const users = useUsers();
  const [editing, setEditing] = useState<{ user: User | undefined } | null>(null);
  const [toppingUp, setToppingUp] = useState<User | undefined>(undefined);
  const [usageOf, setUsageOf] = useState<number | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => deleteUser(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users }),
    onError: (error) => notifyError(t('common.error'), error),
  });
  const columns: Column<User>[] = [
    {
      key: 'username',
      header: t('users.username'),
      render: (user) => (
        <Text size="sm" fw={500} className="break-anywhere">
          {user.username}{' '}
          <Text span c="dimmed" size="xs">
            #{user.id}
          </Text>
        </Text>
      ),
    },
    { key: 'role', header: t('users.role'), render: (user) => t(`roles.${user.role}`) },
    { key: 'group', header: t('users.group'), render: (user) => user.group },
    { key: 'balance', header: t('users.balance'), align: 'right', render: (user) => formatUsd(user.balance) },
    { key: 'used', header: t('users.used'), align: 'right', render: (user) => formatUsd(user.used) },
    {
      key: 'language',
      header: t('users.language'),
      render: (user) => (user.language ? t(`languages.${user.language}`) : t('languages.none')),
    },
    { key: 'status', header: t('users.status'), render: (user) => <StatusBadge status={user.status} /> },
    { key: 'limits', header: t('users.limits'), render: (user) => <UserLimits user={user} /> },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (user) => (
        <Group gap={4} wrap="wrap">
          <Button size="xs" variant="light" onClick={() => setEditing({ user })}>
            {t('common.edit')}
          </Button>
          <Button size="xs" variant="light" color="teal" onClick={() => setToppingUp(user)}>
            {t('users.topUp')}
          </Button>
          {user.budgets.length > 0 && (
            <Button
              size="xs"
              variant="light"
              onClick={() => setUsageOf(usageOf === user.id ? null : user.id)}
              aria-expanded={usageOf === user.id}
            >
              {usageOf === user.id ? t('budgets.hideUsage') : t('budgets.usage')}
            </Button>
          )}
          <ConfirmDeleteButton
            name={user.username}
            pending={remove.isPending}
            onConfirm={() => remove.mutate(user.id)}
          />
        </Group>
      ),
    },
  ];
  const shownUsage = users.data?.find((user) => user.id === usageOf && user.budgets.length > 0);
  return (
    <>
      <PageHeader
        title={t('nav.users')}
        description={t('users.description')}
        actions={<Button onClick={() => setEditing({ user: undefined })}>{t('users.create')}</Button>}
      />
      <Stack gap="md">
        <QueryState query={users}>
          {(rows) => (
            <ResponsiveTable
              label={t('nav.users')}
              rows={rows}
              columns={columns}
              rowKey={(user) => user.id}
              empty={t('common.empty')}
            />
          )}
        </QueryState>
        {shownUsage && (
          <BudgetUsagePanel
            title={t('budgets.usageTitle', { name: shownUsage.username })}
            owner={{ scope: 'user', id: shownUsage.id }}
          />
        )}
      </Stack>
      <UserFormModal opened={editing !== null} user={editing?.user} onClose={() => setEditing(null)} />
      <TopUpModal user={toppingUp} onClose={() => setToppingUp(undefined)} />
    </>
  );
}
