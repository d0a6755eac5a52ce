import { useMemo } from 'react';
import { statsWindow } from '../stats/stats-window';
import { sumStatsByGroup, type GroupFigures } from '../stats/summarize-stats';
import { useStats } from '../stats/use-stats';

/** Requests, success and mean latency of every channel over the last 24 hours, by channel id. */
export function useChannelTraffic(): ReadonlyMap<number, GroupFigures> {
  const window = useMemo(() => statsWindow('24h', Math.floor(Date.now() / 1000)), []);
  const stats = useStats({ scope: 'admin', window, groupBy: 'channel' });
  return useMemo(() => {
    const byChannel = new Map<number, GroupFigures>();
    for (const figures of sumStatsByGroup(stats.data ?? [])) {
      if (figures.group !== null) byChannel.set(Number(figures.group), figures);
    }
    return byChannel;
  }, [stats.data]);
}
