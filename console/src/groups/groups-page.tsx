import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listGroups } from '../api/groups-api';
import { queryKeys } from '../api/query-keys';
import type { Group } from '../api/types';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { GroupRatioForm } from './group-ratio-form';

export function GroupsPage() {
  const { t } = useTranslation();
  const groups = useQuery({ queryKey: queryKeys.groups, queryFn: listGroups });
  const [selected, setSelected] = useState<Group | undefined>(undefined);
  const columns: Column<Group>[] = [
    { key: 'name', header: t('groups.name'), render: (group) => group.name },
    { key: 'ratio', header: t('groups.ratio'), align: 'right', render: (group) => String(group.ratio) },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (group) => (
        <Button size="xs" variant="light" onClick={() => setSelected({ ...group })}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t('nav.groups')} description={t('groups.description')} />
      <Stack gap="md">
        <GroupRatioForm selected={selected} />
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
      </Stack>
    </>
  );
}
