/** Small readers for untrusted JSON: every wire value is checked before it is used (STYLE rule 8). */
import { isJsonObject, setOwnMember, type JsonObject } from '../wire-json.js';

export {
  asBoolean as readBoolean,
  asCount as count,
  asFiniteNumber as readNumber,
  asString as readString,
  isJsonObject as isRecord,
  parseJson,
  type JsonObject as JsonRecord,
  type JsonParseResult as ParseResult,
} from '../wire-json.js';

export function asRecord(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The members of `record` not named in `known`, or undefined when there are none. */
export function otherMembers(record: JsonObject, known: readonly string[]): JsonObject | undefined {
  const rest: JsonObject = {};
  let any = false;
  for (const [key, value] of Object.entries(record)) {
    if (known.includes(key) || value === undefined) continue;
    setOwnMember(rest, key, value);
    any = true;
  }
  return any ? rest : undefined;
}
