import { setOwnMember, isJsonObject, type JsonObject } from '../wire-json.js';

/**
 * Gemini's OpenAPI-subset `Schema` (https://ai.google.dev/api/caching#Schema), as used by
 * `parameters` and `responseSchema`, to JSON Schema: upper-case `type` names become JSON Schema
 * ones and `nullable: true` becomes a `null` member of `type`. Everything else is already JSON
 * Schema vocabulary and stays as written. Applying it twice changes nothing.
 */
export function convertGeminiSchema(schema: JsonObject): JsonObject {
  const converted: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || (key === 'type' && value === 'TYPE_UNSPECIFIED')) continue;
    setOwnMember(converted, key, convertMember(key, value));
  }
  if (schema.nullable === true) {
    const type = converted.type;
    if (typeof type === 'string' && type !== 'null') converted.type = [type, 'null'];
    else if (type === undefined) converted.nullable = true;
  } else if (schema.nullable !== undefined) converted.nullable = schema.nullable;
  return converted;
}

function convertMember(key: string, value: unknown): unknown {
  switch (key) {
    case 'type':
      return typeof value === 'string' ? value.toLowerCase() : value;
    case 'items':
      return isJsonObject(value) ? convertGeminiSchema(value) : value;
    case 'anyOf':
      return Array.isArray(value)
        ? value.map((item) => (isJsonObject(item) ? convertGeminiSchema(item) : item))
        : value;
    case 'properties':
      if (!isJsonObject(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [
          name,
          isJsonObject(item) ? convertGeminiSchema(item) : item,
        ]),
      );
    default:
      return value;
  }
}
