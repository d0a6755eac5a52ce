/** Small readers for untrusted JSON values: they narrow, never throw. */

export type WireObject = Record<string, unknown>;

export function isWireObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asWireObject(value: unknown): WireObject | undefined {
  return isWireObject(value) ? value : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asFiniteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A token count: a finite, non-negative number, rounded. */
export function asCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse` as a result (STYLE rule 8: no bare parse of untrusted text). */
export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The object without the named keys; undefined when nothing is left. */
export function withoutKeys(value: WireObject, keys: readonly string[]): WireObject | undefined {
  const rest: WireObject = {};
  for (const [key, item] of Object.entries(value)) if (!keys.includes(key)) rest[key] = item;
  return Object.keys(rest).length > 0 ? rest : undefined;
}
