import type { FilePart, TextPart, ToolResultPart } from '../../ir/content.js';
import type { JsonObject } from '../wire-json.js';

/**
 * A `functionResponse` (https://ai.google.dev/api/caching#FunctionResponse) as a canonical tool
 * result. Gemini's convention is `{output: ...}` for a result and `{error: ...}` for a failure;
 * a lone string under either key becomes the text itself, anything else the JSON text of the
 * whole response. `encodeGeminiToolResponse` is the inverse.
 */
export function decodeGeminiToolResult(input: {
  toolCallId: string;
  name: string;
  response: JsonObject;
  files: FilePart[];
}): ToolResultPart {
  const { response } = input;
  const keys = Object.keys(response);
  const isError = 'error' in response && !('output' in response);
  const lone = keys.length === 1 ? response[keys[0] ?? ''] : undefined;
  const text =
    typeof lone === 'string' && (keys[0] === 'output' || keys[0] === 'error')
      ? lone
      : JSON.stringify(response);
  const content: (TextPart | FilePart)[] = [{ type: 'text', text }, ...input.files];
  return {
    type: 'tool-result',
    toolCallId: input.toolCallId,
    name: input.name,
    content,
    ...(isError && { isError: true }),
  };
}
