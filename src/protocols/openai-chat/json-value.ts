/** Small readers for JSON of unknown shape: wire bodies are parsed into results, never trusted. */
import { setOwnMember, type JsonObject } from '../wire-json.js';

export {
  asFiniteNumber as optionalNumber,
  asString as optionalString,
  isJsonObject as isRecord,
  parseJson,
  type JsonObject as JsonRecord,
  type JsonParseResult as ParseResult,
} from '../wire-json.js';

/** Without the keys listed, or undefined when nothing is left. */
export function omitKeys(record: JsonObject, keys: ReadonlySet<string>): JsonObject | undefined {
  const rest: JsonObject = {};
  let any = false;
  for (const [key, value] of Object.entries(record)) {
    if (keys.has(key)) continue;
    setOwnMember(rest, key, value);
    any = true;
  }
  return any ? rest : undefined;
}
