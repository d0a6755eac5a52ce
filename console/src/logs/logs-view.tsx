import { Button, Group, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listLogs, type LogScope } from '../api/logs-api';
import { queryKeys } from '../api/query-keys';
import type { UsageLog } from '../api/types';
import { QueryState } from '../components/query-state';
import { LogDetailDrawer } from './log-detail-drawer';
import { LogExportMenu } from './log-export-menu';
import { EMPTY_LOG_FILTERS, logQuery, type LogFilters } from './log-filters';
import { LogFiltersForm, type FilterOption } from './log-filters-form';
import type { LogNames } from './log-names';
import { LogPager } from './log-pager';
import { LogTotals } from './log-totals';
import { LogsTable } from './logs-table';

const PAGE_SIZE = 50;

/**
 * Filters, totals, one page of records and the pager, for `/api/logs` or `/api/me/logs`; for the
 * former also the export of every record the filters match. A record's details open in a drawer.
 */
export function LogsView({
  scope,
  filterOptions,
  names,
}: {
  scope: LogScope;
  filterOptions: {
    users?: readonly FilterOption[];
    keys: readonly FilterOption[];
    channels?: readonly FilterOption[];
  };
  names: LogNames;
}) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<LogFilters>(EMPTY_LOG_FILTERS);
  const [offset, setOffset] = useState(0);
  const [detailOf, setDetailOf] = useState<UsageLog | null>(null);
  const query = logQuery(filters, { limit: PAGE_SIZE, offset });
  const logs = useQuery({
    queryKey: [...queryKeys.logs, scope, query],
    queryFn: () => listLogs({ scope, query }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // New requests appear by themselves on the first page (records are written just after the
    // reply, so one fetched at once may miss the newest).
    refetchInterval: offset === 0 && filters.to === '' ? 5000 : false,
  });
  return (
    <Stack gap="md">
      <LogFiltersForm
        value={filters}
        onApply={(next) => {
          setFilters(next);
          setOffset(0);
        }}
        keys={filterOptions.keys}
        {...(filterOptions.users ? { users: filterOptions.users } : {})}
        {...(filterOptions.channels ? { channels: filterOptions.channels } : {})}
      />
      <Group justify="flex-end" gap="xs">
        {scope === 'admin' && <LogExportMenu filters={filters} />}
        <Button variant="default" size="xs" loading={logs.isFetching} onClick={() => void logs.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <QueryState query={logs}>
        {(page) => (
          <Stack gap="md">
            <LogTotals totals={page.total} />
            <LogsTable logs={page.data} onOpen={setDetailOf} {...names} />
            <LogPager
              offset={offset}
              limit={PAGE_SIZE}
              shown={page.data.length}
              total={page.total.requests}
              onChange={setOffset}
            />
          </Stack>
        )}
      </QueryState>
      <LogDetailDrawer scope={scope} log={detailOf} names={names} onClose={() => setDetailOf(null)} />
    </Stack>
  );
}
