import { apiRequest, type QueryValue } from './api-client';
import type { UsageLogPage } from './types';

/** `GET /api/logs` (admin) or `/api/me/logs` (own), with the filters already in query form. */
export function listLogs(options: {
  scope: 'admin' | 'own';
  query: Readonly<Record<string, QueryValue>>;
}): Promise<UsageLogPage> {
  return apiRequest<UsageLogPage>(options.scope === 'admin' ? '/logs' : '/me/logs', { query: options.query });
}
