import { apiUrl } from '../api/api-client';
import { logFilterQuery, type LogFilters } from './log-filters';

export type LogExportFormat = 'jsonl' | 'csv';

export const LOG_EXPORT_FORMATS: readonly LogExportFormat[] = ['jsonl', 'csv'];

/**
 * `GET /api/logs/export` (admin-api section 12) for the filters the page applies, without its
 * paging: every matching record, oldest first. A plain link does: the browser sends the session
 * cookie with it, and a GET needs no CSRF header.
 */
export function logExportUrl(filters: LogFilters, format: LogExportFormat): string {
  return apiUrl('/logs/export', { format, ...logFilterQuery(filters) });
}

/** The name the server gives the download too (`Content-Disposition`). */
export function logExportFileName(format: LogExportFormat): string {
  return `usage-logs.${format}`;
}
