/** Small readers for JSON of unknown shape: wire bodies are parsed into results, never trusted. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse` as a result (STYLE rule 8). */
export function parseJson(text: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Without the keys listed, or undefined when nothing is left. */
export function omitKeys(record: JsonRecord, keys: ReadonlySet<string>): JsonRecord | undefined {
  const rest: JsonRecord = {};
  let any = false;
  for (const [key, value] of Object.entries(record)) {
    if (keys.has(key)) continue;
    rest[key] = value;
    any = true;
  }
  return any ? rest : undefined;
}
