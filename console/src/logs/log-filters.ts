import type { QueryValue } from '../api/api-client';
import { fromDateTimeLocal } from '../format/datetime-local';

/** The Logs page's filters as their inputs hold them; '' is "any". */
export interface LogFilters {
  userId: string;
  keyId: string;
  channelId: string;
  model: string;
  /** `ok` (200), `error` (any other status) or a status code. */
  status: string;
  /** `datetime-local` text. */
  from: string;
  to: string;
}

export const EMPTY_LOG_FILTERS: LogFilters = {
  userId: '',
  keyId: '',
  channelId: '',
  model: '',
  status: '',
  from: '',
  to: '',
};

export interface LogPage {
  limit: number;
  offset: number;
}

/** Query parameters of `/api/logs` (admin-api section 2 and its additions); empty filters left out. */
export function logQuery(filters: LogFilters, page: LogPage): Record<string, QueryValue> {
  return { ...logFilterQuery(filters), limit: page.limit, offset: page.offset };
}

/** The filters alone as query parameters, as `/api/logs` and `/api/logs/export` both take them. */
export function logFilterQuery(filters: LogFilters): Record<string, QueryValue> {
  const status = filters.status.trim();
  return {
    user_id: filters.userId || undefined,
    key_id: filters.keyId || undefined,
    channel_id: filters.channelId || undefined,
    model: filters.model.trim() || undefined,
    status: status || undefined,
    from: fromDateTimeLocal(filters.from) ?? undefined,
    // The minute chosen is included whole.
    to: addSeconds(fromDateTimeLocal(filters.to), 59),
  };
}

function addSeconds(seconds: number | null, extra: number): number | undefined {
  return seconds === null ? undefined : seconds + extra;
}
