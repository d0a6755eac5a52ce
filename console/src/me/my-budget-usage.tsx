import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listKeys } from '../api/keys-api';
import { queryKeys } from '../api/query-keys';
import type { ApiKey, BudgetUsage } from '../api/types';
import { BudgetUsageList } from '../budgets/budget-usage-list';
import { useBudgetUsage } from '../budgets/use-budget-usage';

interface WindowsOf {
  owner: string;
  windows: BudgetUsage[];
}

/** `/api/me/budgets` lists the account's windows, then each key's: kept in that order, one heading each. */
function groupByOwner(windows: readonly BudgetUsage[]): WindowsOf[] {
  const groups = new Map<string, WindowsOf>();
  for (const usage of windows) {
    const owner = `${usage.scope}:${usage.id}`;
    const group = groups.get(owner) ?? { owner, windows: [] };
    group.windows.push(usage);
    groups.set(owner, group);
  }
  return [...groups.values()];
}

/** A user's own budget windows and their keys', on their start page; nothing when none is set. */
export function MyBudgetUsage() {
  const { t } = useTranslation();
  const usage = useBudgetUsage({ scope: 'own' });
  const keys = useQuery({ queryKey: queryKeys.keys('own'), queryFn: () => listKeys('own') });
  if (!usage.data || usage.data.length === 0) return null;
  const keyName = (id: BudgetUsage['id']): string => {
    const apiKey: ApiKey | undefined = keys.data?.find((candidate) => candidate.id === id);
    return apiKey?.name || `#${id}`;
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t('budgets.myTitle')}>
      <Title order={2} size="h4">
        {t('budgets.myTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('budgets.myHint')}
      </Text>
      <Stack gap="md">
        {groupByOwner(usage.data).map(({ owner, windows }) => {
          const first = windows[0];
          return (
            <Stack key={owner} gap="xs">
              <Title order={3} size="h5">
                {first?.scope === 'key'
                  ? t('budgets.ownKey', { name: keyName(first.id) })
                  : t('budgets.ownAccount')}
              </Title>
              <BudgetUsageList windows={windows} />
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}
