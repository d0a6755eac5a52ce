import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchStats } from '../api/stats-api';
import type { StatsGroupBy } from '../api/types';
import type { StatsWindow } from './stats-window';

/** Stats rows of one grouping over one window (`/api/stats` or `/api/me/stats`). */
export function useStats(options: { scope: 'admin' | 'own'; window: StatsWindow; groupBy: StatsGroupBy }) {
  const { scope, window, groupBy } = options;
  return useQuery({
    queryKey: ['stats', scope, groupBy, window.bucket, window.from],
    queryFn: () => fetchStats({ scope, from: window.from, bucket: window.bucket, groupBy }),
    // Traffic changes by the second: fetched on every visit and every 10 s while the page is
    // shown, up to the gateway's now; a new window keeps the old figures on screen until the new
    // ones arrive.
    staleTime: 0,
    refetchInterval: 10_000,
    placeholderData: keepPreviousData,
  });
}
