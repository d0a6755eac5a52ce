import { notFound } from './admin-error.js';

/** A numeric resource id from the path; anything else cannot name a stored row, so it is a 404. */
export function parseIdParam(params: unknown, resource: string): number {
  const raw = String((params as { id?: unknown }).id ?? '');
  const id = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound(resource, raw);
  return id;
}
