/** Small readers for untrusted JSON: every wire value is checked before it is used (STYLE rule 8). */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function readNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function readBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** A token count: a finite non-negative number, rounded. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse` as a result instead of a throw. */
export function parseJson(text: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The members of `record` not named in `known`, or undefined when there are none. */
export function otherMembers(record: JsonRecord, known: readonly string[]): JsonRecord | undefined {
  const rest: JsonRecord = {};
  let any = false;
  for (const [key, value] of Object.entries(record)) {
    if (known.includes(key) || value === undefined) continue;
    rest[key] = value;
    any = true;
  }
  return any ? rest : undefined;
}
