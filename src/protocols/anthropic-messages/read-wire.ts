/** Small readers for untrusted JSON values: they narrow, never throw. */
import { isJsonObject, setOwnMember, type JsonObject } from '../wire-json.js';

export {
  asCount,
  asFiniteNumber,
  asString,
  isJsonObject as isWireObject,
  parseJson,
  type JsonObject as WireObject,
  type JsonParseResult,
} from '../wire-json.js';

export function asWireObject(value: unknown): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/** The object without the named keys; undefined when nothing is left. */
export function withoutKeys(value: JsonObject, keys: readonly string[]): JsonObject | undefined {
  const rest: JsonObject = {};
  for (const [key, item] of Object.entries(value)) if (!keys.includes(key)) setOwnMember(rest, key, item);
  return Object.keys(rest).length > 0 ? rest : undefined;
}
