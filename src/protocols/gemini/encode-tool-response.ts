import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';

/**
 * A tool result's text as a `functionResponse.response` object
 * (https://ai.google.dev/api/caching#FunctionResponse): JSON object text is sent as that object
 * (a failure's only if it already names its `error`), any other text under `output`, or under
 * `error` for a failure. The inverse of `decodeGeminiToolResult`.
 */
export function encodeGeminiToolResponse(text: string, isError: boolean): JsonObject {
  const parsed = parseJson(text);
  const object = parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
  if (isError) return object !== undefined && 'error' in object ? object : { error: text };
  return object ?? { output: text };
}
