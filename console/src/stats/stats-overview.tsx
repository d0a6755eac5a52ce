import { Button, Group, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatsGroupBy } from '../api/types';
import { QueryState } from '../components/query-state';
import { GroupBreakdown } from './group-breakdown';
import { RangeSwitch } from './range-switch';
import { StatsSummaryCards } from './stats-summary-cards';
import { statsWindow, type StatsRange } from './stats-window';
import { sumStats, sumStatsByGroup, sumStatsByTime } from './summarize-stats';
import { TimeSeriesCharts } from './time-series-charts';
import { useStats } from './use-stats';

export interface Breakdown {
  groupBy: StatsGroupBy;
  title: string;
  labelGroup: (group: string | number | null) => string;
}

/**
 * Totals, charts over time and breakdowns for the last 24 hours or 30 days. The first breakdown's
 * rows also give the totals and the time series (every grouping sums to the same).
 */
export function StatsOverview({
  scope,
  primary,
  secondary,
}: {
  scope: 'admin' | 'own';
  primary: Breakdown;
  secondary?: Breakdown;
}) {
  const { t } = useTranslation();
  const [range, setRange] = useState<StatsRange>('24h');
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  const window = useMemo(() => statsWindow(range, now), [range, now]);
  const primaryStats = useStats({ scope, window, groupBy: primary.groupBy });
  const secondaryStats = useStats({ scope, window, groupBy: secondary?.groupBy ?? primary.groupBy });
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <RangeSwitch
          value={range}
          onChange={(next) => {
            setRange(next);
            setNow(Math.floor(Date.now() / 1000));
          }}
        />
        <Button
          variant="default"
          size="xs"
          loading={primaryStats.isFetching || secondaryStats.isFetching}
          onClick={() => {
            setNow(Math.floor(Date.now() / 1000));
            void primaryStats.refetch();
            void secondaryStats.refetch();
          }}
        >
          {t('common.refresh')}
        </Button>
      </Group>
      <QueryState query={primaryStats}>
        {(rows) => (
          <Stack gap="md">
            <StatsSummaryCards figures={sumStats(rows)} />
            {rows.length === 0 && (
              <Text c="dimmed" size="sm">
                {t('stats.noData')}
              </Text>
            )}
            <TimeSeriesCharts points={sumStatsByTime(rows, window)} bucket={window.bucket} />
            <GroupBreakdown
              title={primary.title}
              groups={sumStatsByGroup(rows)}
              labelGroup={primary.labelGroup}
            />
          </Stack>
        )}
      </QueryState>
      {secondary && (
        <QueryState query={secondaryStats}>
          {(rows) => (
            <GroupBreakdown
              title={secondary.title}
              groups={sumStatsByGroup(rows)}
              labelGroup={secondary.labelGroup}
            />
          )}
        </QueryState>
      )}
    </Stack>
  );
}
