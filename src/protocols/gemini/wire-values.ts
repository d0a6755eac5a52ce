/** Small readers for JSON of unknown shape: wire bodies are narrowed, never trusted (STYLE rule 8). */
import { isJsonObject, setOwnMember, type JsonObject } from '../wire-json.js';

export {
  asBoolean,
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

export function asStringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** The object without the named keys; undefined when nothing is left. */
export function withoutKeys(value: JsonObject, keys: readonly string[]): JsonObject | undefined {
  const rest: JsonObject = {};
  for (const [key, item] of Object.entries(value)) if (!keys.includes(key)) setOwnMember(rest, key, item);
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Structural equality of JSON values (key order ignored), to tell whether a canonical value changed. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => jsonEqual(item, right[index]));
  }
  if (!isJsonObject(left) || !isJsonObject(right)) return false;
  const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => jsonEqual(left[key], right[key]));
}
