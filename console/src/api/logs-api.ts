import { apiRequest, type QueryValue } from './api-client';
import type { UsageLogDetail, UsageLogPage } from './types';

/** Admins read every record under `/api/logs`; a user reads their own under `/api/me/logs`. */
export type LogScope = 'admin' | 'own';

function logsPath(scope: LogScope): string {
  return scope === 'admin' ? '/logs' : '/me/logs';
}

/** `GET /api/logs` (admin) or `/api/me/logs` (own), with the filters already in query form. */
export function listLogs(options: {
  scope: LogScope;
  query: Readonly<Record<string, QueryValue>>;
}): Promise<UsageLogPage> {
  return apiRequest<UsageLogPage>(logsPath(options.scope), { query: options.query });
}

/** One record with its stored bodies (admin-api section 12). */
export function fetchLogDetail(options: { scope: LogScope; id: number }): Promise<UsageLogDetail> {
  return apiRequest<UsageLogDetail>(`${logsPath(options.scope)}/${options.id}`);
}
