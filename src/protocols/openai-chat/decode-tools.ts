import type { Tool, ToolChoice } from '../../ir/request.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { isJsonObject } from '../wire-json.js';
import { OPENAI_CHAT } from './openai-chat-extension.js';

/**
 * `tools` and `web_search_options` (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools).
 * Function tools are canonical; custom tools and unknown kinds are kept whole as provider tools of
 * this protocol. `web_search_options` asks for the model's web search, so it becomes a web search
 * tool that other protocols write in their own form (client-api 4.7).
 */
export function decodeTools(tools: unknown, webSearchOptions: unknown): Tool[] {
  const decoded: Tool[] = [];
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) throw new InvalidRequestError('tools', 'must be an array');
    tools.forEach((tool: unknown, index) => decoded.push(decodeTool(tool, `tools[${index}]`)));
  }
  if (webSearchOptions !== undefined && webSearchOptions !== null) {
    if (!isJsonObject(webSearchOptions))
      throw new InvalidRequestError('web_search_options', 'must be an object');
    decoded.push({ type: 'provider', kind: 'web-search', protocol: OPENAI_CHAT, value: webSearchOptions });
  }
  return decoded;
}

function decodeTool(tool: unknown, path: string): Tool {
  if (!isJsonObject(tool) || typeof tool.type !== 'string')
    throw new InvalidRequestError(path, 'must be a tool object with a type');
  if (tool.type !== 'function')
    return { type: 'provider', kind: 'other', protocol: OPENAI_CHAT, value: tool };
  const fn = tool.function;
  if (!isJsonObject(fn) || typeof fn.name !== 'string')
    throw new InvalidRequestError(`${path}.function.name`, 'must be a string');
  if (fn.parameters !== undefined && !isJsonObject(fn.parameters))
    throw new InvalidRequestError(`${path}.function.parameters`, 'must be a JSON Schema object');
  if (fn.description !== undefined && typeof fn.description !== 'string')
    throw new InvalidRequestError(`${path}.function.description`, 'must be a string');
  return {
    type: 'function',
    name: fn.name,
    ...(fn.description !== undefined && { description: fn.description }),
    // "Omitting `parameters` defines a function with an empty parameter list."
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    ...(typeof fn.strict === 'boolean' && { strict: fn.strict }),
  };
}

/**
 * `tool_choice` (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice).
 * `allowed_tools` and custom tool choices have no canonical form: undefined, and the caller keeps
 * the value for this protocol.
 */
export function decodeToolChoice(value: unknown): ToolChoice | undefined {
  switch (value) {
    case undefined:
    case null:
      return undefined;
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'required' };
  }
  if (!isJsonObject(value))
    throw new InvalidRequestError('tool_choice', "must be 'auto', 'none', 'required' or an object");
  if (value.type === 'function') {
    const fn = value.function;
    if (!isJsonObject(fn) || typeof fn.name !== 'string')
      throw new InvalidRequestError('tool_choice.function.name', 'must be a string');
    return { type: 'tool', name: fn.name };
  }
  return undefined;
}
