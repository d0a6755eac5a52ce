import { apiRequest } from './api-client';
import type { ListResponse, StatsBucket, StatsGroupBy, StatsRow } from './types';

export interface StatsQuery {
  scope: 'admin' | 'own';
  from: number;
  /** Absent: up to now, as the gateway reads the request. */
  to?: number;
  bucket: StatsBucket;
  groupBy: StatsGroupBy;
}

/** `GET /api/stats` (admin) or `/api/me/stats` (own data). */
export async function fetchStats(query: StatsQuery): Promise<StatsRow[]> {
  const path = query.scope === 'admin' ? '/stats' : '/me/stats';
  const reply = await apiRequest<ListResponse<StatsRow>>(path, {
    query: { from: query.from, to: query.to, bucket: query.bucket, group_by: query.groupBy },
  });
  return reply.data;
}
