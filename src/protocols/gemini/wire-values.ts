/** Small readers for JSON of unknown shape: wire bodies are narrowed, never trusted (STYLE rule 8). */

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

export function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

export function asFiniteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A token count: a finite, non-negative number, rounded. */
export function asCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

export function asStringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse` as a result: no bare parse of untrusted text. */
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

/** Structural equality of JSON values (key order ignored), to tell whether a canonical value changed. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => jsonEqual(item, right[index]));
  }
  if (!isWireObject(left) || !isWireObject(right)) return false;
  const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => jsonEqual(left[key], right[key]));
}
