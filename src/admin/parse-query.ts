import { invalidField } from './admin-error.js';

export interface ListQuery {
  limit: number;
  offset: number;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** `limit` (1..1000, default 100) and `offset` (>= 0, default 0) of every list endpoint. */
export function parseListQuery(query: unknown): ListQuery {
  return {
    limit: readIntegerParameter(query, 'limit', { min: 1, max: MAX_LIMIT }) ?? DEFAULT_LIMIT,
    offset: readIntegerParameter(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER }) ?? 0,
  };
}

/** An optional integer query parameter such as `user_id`; anything but plain digits in range is a 400. */
export function readIntegerParameter(
  query: unknown,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  const raw = readStringParameter(query, name);
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    const bounds =
      range.max === Number.MAX_SAFE_INTEGER ? `>= ${range.min}` : `between ${range.min} and ${range.max}`;
    throw invalidField(name, `must be an integer ${bounds}`);
  }
  return value;
}

/** An optional text query parameter; a repeated one is refused rather than guessed at. */
export function readStringParameter(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, name)) return undefined;
  const value = (query as Record<string, unknown>)[name];
  if (typeof value !== 'string') throw invalidField(name, 'must be given once');
  return value;
}

/** Applies `limit` and `offset` to a list the repository returns whole (prices, groups). */
export function pageOf<T>(items: readonly T[], page: ListQuery): T[] {
  return items.slice(page.offset, page.offset + page.limit);
}
