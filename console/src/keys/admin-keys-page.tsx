import { Button, NativeSelect, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listKeys } from '../api/keys-api';
import { queryKeys } from '../api/query-keys';
import type { ApiKey } from '../api/types';
import { BudgetUsagePanel } from '../budgets/budget-usage-panel';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { useUsers } from '../users/use-users';
import { KeyCreatedModal } from './key-created-modal';
import { KeyFormModal } from './key-form-modal';
import { KeysTable } from './keys-table';

/** Keys of every user, or of one chosen user. */
export function AdminKeysPage() {
  const { t } = useTranslation();
  const users = useUsers();
  const [userFilter, setUserFilter] = useState('');
  const userId = userFilter === '' ? undefined : Number(userFilter);
  const keys = useQuery({
    queryKey: [...queryKeys.keys('admin'), userId ?? 'all'],
    queryFn: () => listKeys('admin', userId),
  });
  const [editing, setEditing] = useState<{ apiKey: ApiKey | undefined } | null>(null);
  const [created, setCreated] = useState<ApiKey | undefined>(undefined);
  const [usageOf, setUsageOf] = useState<number | null>(null);
  const names = useMemo(
    () => new Map((users.data ?? []).map((user) => [user.id, user.username])),
    [users.data],
  );
  const shownUsage = keys.data?.find((apiKey) => apiKey.id === usageOf && apiKey.budgets.length > 0);
  return (
    <>
      <PageHeader
        title={t('nav.keys')}
        description={t('keys.description')}
        actions={
          <Button onClick={() => setEditing({ apiKey: undefined })} disabled={!users.data}>
            {t('keys.create')}
          </Button>
        }
      />
      <Stack gap="md">
        <NativeSelect
          label={t('keys.user')}
          value={userFilter}
          onChange={(event) => setUserFilter(event.currentTarget.value)}
          data={[
            { value: '', label: t('keys.allUsers') },
            ...(users.data ?? []).map((user) => ({
              value: String(user.id),
              label: `${user.username} (#${user.id})`,
            })),
          ]}
          maw={320}
        />
        <QueryState query={keys}>
          {(rows) => (
            <KeysTable
              scope="admin"
              keys={rows}
              ownerName={(id) => (names.has(id) ? `${names.get(id) ?? ''} (#${id})` : `#${id}`)}
              onEdit={(apiKey) => setEditing({ apiKey })}
              usage={{
                shownFor: usageOf,
                onToggle: (apiKey) => setUsageOf(usageOf === apiKey.id ? null : apiKey.id),
              }}
            />
          )}
        </QueryState>
        {shownUsage && (
          <BudgetUsagePanel
            title={t('budgets.usageTitle', { name: shownUsage.name || shownUsage.key })}
            owner={{ scope: 'key', id: shownUsage.id }}
          />
        )}
      </Stack>
      <KeyFormModal
        scope="admin"
        opened={editing !== null}
        apiKey={editing?.apiKey}
        owners={users.data ?? []}
        {...(userId === undefined ? {} : { defaultOwner: userId })}
        onClose={() => setEditing(null)}
        onCreated={setCreated}
      />
      <KeyCreatedModal apiKey={created} onClose={() => setCreated(undefined)} />
    </>
  );
}
