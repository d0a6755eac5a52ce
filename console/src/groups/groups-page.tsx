import { Button, Group as ButtonRow, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listGroups } from '../api/groups-api';
import { queryKeys } from '../api/query-keys';
import type { Group } from '../api/types';
import { BudgetUsagePanel } from '../budgets/budget-usage-panel';
import { LimitLines } from '../budgets/limit-lines';
import { spendLimitLines } from '../budgets/spend-limit-lines';
import { ButtonWithDisabledReason } from '../components/button-with-disabled-reason';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { ManagedBadge } from '../config-file/managed-badge';
import { useManagedByConfig } from '../config-file/use-managed-by-config';
import { GroupForm } from './group-form';

/** The groups with their ratio and limits; one the configuration file manages is not offered for editing. */
export function GroupsPage() {
  const { t, i18n } = useTranslation();
  const { writeBlockedBy } = useManagedByConfig();
  const groups = useQuery({ queryKey: queryKeys.groups, queryFn: listGroups });
  const [selected, setSelected] = useState<Group | undefined>(undefined);
  const [usageOf, setUsageOf] = useState<string | null>(null);
  const columns: Column<Group>[] = [
    {
      key: 'name',
      header: t('groups.name'),
      render: (group) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" className="break-anywhere">
            {group.name}
          </Text>
          <ManagedBadge managed={group.managed} />
        </Stack>
      ),
    },
    { key: 'ratio', header: t('groups.ratio'), align: 'right', render: (group) => String(group.ratio) },
    {
      key: 'limits',
      header: t('groups.limits'),
      render: (group) => <LimitLines lines={spendLimitLines(group, { t, language: i18n.language })} />,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (group) => (
        <ButtonRow gap={4} wrap="wrap">
          <ButtonWithDisabledReason
            size="xs"
            variant="light"
            disabledReason={writeBlockedBy(group.managed)}
            onClick={() => setSelected({ ...group })}
          >
            {t('common.edit')}
          </ButtonWithDisabledReason>
          {group.budgets.length > 0 && (
            <Button
              size="xs"
              variant="light"
              onClick={() => setUsageOf(usageOf === group.name ? null : group.name)}
              aria-expanded={usageOf === group.name}
            >
              {usageOf === group.name ? t('budgets.hideUsage') : t('budgets.usage')}
            </Button>
          )}
        </ButtonRow>
      ),
    },
  ];
  const shownUsage = groups.data?.find((group) => group.name === usageOf && group.budgets.length > 0);
  return (
    <>
      <PageHeader title={t('nav.groups')} description={t('groups.description')} />
      <Stack gap="md">
        <GroupForm selected={selected} />
        <QueryState query={groups}>
          {(rows) => (
            <ResponsiveTable
              label={t('nav.groups')}
              rows={rows}
              columns={columns}
              rowKey={(group) => group.name}
              empty={t('common.empty')}
            />
          )}
        </QueryState>
        {shownUsage && (
          <BudgetUsagePanel
            title={t('budgets.usageTitle', { name: shownUsage.name })}
            owner={{ scope: 'group', name: shownUsage.name }}
          />
        )}
      </Stack>
    </>
  );
}
