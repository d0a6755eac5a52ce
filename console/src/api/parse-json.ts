export type ParsedJson = { ok: true; value: unknown } | { ok: false };

/** JSON text as a result: an empty, cut or otherwise broken text is `{ ok: false }`, never a throw. */
export function parseJson(text: string): ParsedJson {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
