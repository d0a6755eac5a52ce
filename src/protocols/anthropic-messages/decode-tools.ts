import type { FunctionTool, Tool, ToolChoice } from '../../ir/request.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { setOwnMember, asString, isJsonObject, withoutKeys, type JsonObject } from '../wire-json.js';
import { ANTHROPIC_MESSAGES } from './anthropic-extensions.js';
import { decodeCacheControl } from './decode-content-block.js';

/** Custom tool fields the canonical `FunctionTool` carries; the rest travel in `toolFields`. */
const FUNCTION_TOOL_FIELDS = ['type', 'name', 'description', 'input_schema', 'strict', 'cache_control'];

export interface DecodedTools {
  tools: Tool[];
  /** Fields of custom tools with no canonical meaning, by tool name. */
  toolFields: Record<string, JsonObject>;
}

/**
 * `tools` (https://docs.anthropic.com/en/api/messages#body-tools): custom tools (no `type`, or
 * `custom`) become function tools; server tools are kept whole as provider tools, `web_search_*`
 * with the canonical kind `web-search`.
 */
export function decodeTools(value: unknown): DecodedTools {
  const result: DecodedTools = { tools: [], toolFields: {} };
  if (value === undefined || value === null) return result;
  if (!Array.isArray(value)) throw new GatewayError('field_required', { field: 'tools' });
  value.forEach((item, index) => {
    const path = `tools[${index}]`;
    if (!isJsonObject(item)) throw new GatewayError('field_required', { field: path });
    if (item.type === undefined || item.type === null || item.type === 'custom') {
      const tool = decodeCustomTool(item, path);
      result.tools.push(tool);
      const extra = withoutKeys(item, FUNCTION_TOOL_FIELDS);
      if (extra) setOwnMember(result.toolFields, tool.name, extra);
      return;
    }
    const type = asString(item.type) ?? '';
    result.tools.push({
      type: 'provider',
      kind: type.startsWith('web_search_') ? 'web-search' : 'other',
      protocol: ANTHROPIC_MESSAGES,
      value: item,
    });
  });
  return result;
}

function decodeCustomTool(item: JsonObject, path: string): FunctionTool {
  const name = asString(item.name);
  if (name === undefined) throw new GatewayError('field_required', { field: `${path}.name` });
  if (!isJsonObject(item.input_schema))
    throw new GatewayError('field_required', { field: `${path}.input_schema` });
  const tool: FunctionTool = { type: 'function', name, parameters: item.input_schema };
  const description = asString(item.description);
  if (description !== undefined) tool.description = description;
  if (typeof item.strict === 'boolean') tool.strict = item.strict;
  const cacheControl = decodeCacheControl(item.cache_control);
  if (cacheControl) tool.cacheControl = cacheControl;
  return tool;
}

export interface DecodedToolChoice {
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
}

/** `tool_choice` (https://docs.anthropic.com/en/api/messages#body-tool-choice). */
export function decodeToolChoice(value: unknown): DecodedToolChoice {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw new GatewayError('field_required', { field: 'tool_choice.type' });
  const result: DecodedToolChoice = {};
  switch (value.type) {
    case 'auto':
      result.toolChoice = { type: 'auto' };
      break;
    case 'any':
      result.toolChoice = { type: 'required' };
      break;
    case 'none':
      result.toolChoice = { type: 'none' };
      break;
    case 'tool': {
      const name = asString(value.name);
      if (name === undefined) throw new GatewayError('field_required', { field: 'tool_choice.name' });
      result.toolChoice = { type: 'tool', name };
      break;
    }
    default:
      throw new GatewayError('field_required', { field: 'tool_choice.type' });
  }
  if (typeof value.disable_parallel_tool_use === 'boolean')
    result.parallelToolCalls = !value.disable_parallel_tool_use;
  return result;
}
