import type { FunctionTool, Tool, ToolChoice } from '../../ir/request.js';
import { setOwnMember, isJsonObject, withoutKeys, asBoolean, asString } from '../wire-json.js';
import { fieldError } from '../invalid-request-error.js';
import { PROTOCOL, type RequestItemDetail } from './responses-extensions.js';

/** Hosted web search in its dated and preview spellings (https://platform.openai.com/docs/guides/tools-web-search). */
const WEB_SEARCH_TYPES = new Set([
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
]);

/**
 * Request `tools` (https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools):
 * function tools are flat (`{ type: 'function', name, description, parameters, strict }`); hosted
 * tools stay whole as provider tools, web search under the canonical kind.
 */
export function decodeTools(tools: unknown, detail: RequestItemDetail): Tool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw fieldError({ field: 'tools', value: tools, expected: 'an array' });
  return tools.map((tool, index): Tool => {
    if (!isJsonObject(tool) || typeof tool.type !== 'string') {
      throw fieldError({
        field: `tools[${index}].type`,
        value: isJsonObject(tool) ? tool.type : tool,
        expected: 'a tool type',
      });
    }
    if (tool.type !== 'function') {
      return {
        type: 'provider',
        kind: WEB_SEARCH_TYPES.has(tool.type) ? 'web-search' : 'other',
        protocol: PROTOCOL,
        value: tool,
      };
    }
    const name = asString(tool.name);
    if (name === undefined)
      throw fieldError({ field: `tools[${index}].name`, value: tool.name, expected: 'a string' });
    const decoded: FunctionTool = {
      type: 'function',
      name,
      parameters: isJsonObject(tool.parameters) ? tool.parameters : {},
    };
    const description = asString(tool.description);
    if (description !== undefined) decoded.description = description;
    const strict = asBoolean(tool.strict);
    if (strict !== undefined) decoded.strict = strict;
    const rest = withoutKeys(tool, ['type', 'name', 'description', 'parameters', 'strict']);
    if (rest) setOwnMember((detail.functionTools ??= {}), name, rest);
    return decoded;
  });
}

/**
 * `tool_choice`: the three modes and a named function map; hosted-tool, allowed-tools and other
 * forms have no canonical counterpart and stay verbatim in the extensions (`undefined` here).
 */
export function decodeToolChoice(choice: unknown): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (isJsonObject(choice) && choice.type === 'function' && typeof choice.name === 'string') {
    return { type: 'tool', name: choice.name };
  }
  return undefined;
}
