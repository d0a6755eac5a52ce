import type { LossLog } from '../../ir/loss.js';
import type { Tool, ToolChoice } from '../../ir/request.js';
import { ANTHROPIC_MESSAGES } from './anthropic-extensions.js';
import { encodeCacheControl } from './encode-cache-control.js';
import type { LossContext } from './loss-context.js';
import { asJsonObject, type JsonObject } from '../wire-json.js';
import {
  keptBlockOf,
  type AnthropicCustomTool,
  type AnthropicTool,
  type AnthropicToolChoice,
  type AnthropicWebSearchTool,
} from './wire-types.js';

/** https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool */
const WEB_SEARCH_TOOL: AnthropicWebSearchTool = { type: 'web_search_20250305', name: 'web_search' };

/**
 * Canonical tools -> `tools` (https://docs.anthropic.com/en/api/messages#body-tools). Function
 * tools become custom tools; provider tools of this protocol go back as they came; a web search
 * tool of another protocol (OpenAI `web_search_options`) becomes Anthropic's web search tool;
 * other protocols' provider tools have no Anthropic form.
 */
export function encodeTools(options: {
  tools: Tool[];
  toolFields: Record<string, JsonObject>;
  losses: LossLog;
}): AnthropicTool[] {
  const encoded: AnthropicTool[] = [];
  options.tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    switch (tool.type) {
      case 'function': {
        const parameters =
          tool.parameters.type === undefined ? { type: 'object', ...tool.parameters } : tool.parameters;
        const wire: AnthropicCustomTool = {
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          input_schema: parameters,
        };
        if (tool.strict !== undefined) wire.strict = tool.strict;
        const cacheControl = encodeCacheControl(tool.cacheControl);
        if (cacheControl) wire.cache_control = cacheControl;
        encoded.push({ ...wire, ...options.toolFields[tool.name] });
        break;
      }
      case 'provider':
        if (tool.protocol === ANTHROPIC_MESSAGES) encoded.push(keptBlockOf(tool.value));
        else if (tool.kind === 'web-search')
          encoded.push(webSearchTool(tool.value, { path, losses: options.losses }));
        else options.losses.dropped(path, `no Anthropic form for this ${tool.protocol} provider tool`);
        break;
      default: {
        const unreachable: never = tool;
        return unreachable;
      }
    }
  });
  return encoded;
}

/**
 * Another protocol's web search settings: OpenAI's approximate `user_location` has the same
 * fields as Anthropic's; the rest (such as `search_context_size`) has no Anthropic form.
 */
function webSearchTool(value: JsonObject, { path, losses }: LossContext): AnthropicWebSearchTool {
  const tool: AnthropicWebSearchTool = { ...WEB_SEARCH_TOOL };
  const approximate = asJsonObject(asJsonObject(value.user_location)?.approximate);
  if (approximate) tool.user_location = { type: 'approximate', ...approximate };
  for (const key of Object.keys(value)) {
    if (key === 'type' || (key === 'user_location' && approximate)) continue;
    losses.dropped(`${path}.${key}`, 'no Anthropic web search setting');
  }
  return tool;
}

/**
 * Tool choice and parallel calls -> `tool_choice` (https://docs.anthropic.com/en/api/messages#body-tool-choice).
 * `disable_parallel_tool_use` lives inside the choice, so a parallel setting alone is written with `auto`.
 */
export function encodeToolChoice(options: {
  toolChoice: ToolChoice | undefined;
  parallelToolCalls: boolean | undefined;
  hasTools: boolean;
  losses: LossLog;
}): AnthropicToolChoice | undefined {
  const { toolChoice, parallelToolCalls, losses } = options;
  if (!options.hasTools) {
    if (toolChoice) losses.dropped('toolChoice', 'Anthropic accepts tool_choice only with tools');
    if (parallelToolCalls !== undefined)
      losses.dropped('parallelToolCalls', 'Anthropic accepts tool_choice only with tools');
    return undefined;
  }
  let choice: Exclude<AnthropicToolChoice, { type: 'none' }> | undefined;
  switch (toolChoice?.type) {
    case undefined:
      choice = parallelToolCalls === undefined ? undefined : { type: 'auto' };
      break;
    case 'auto':
      choice = { type: 'auto' };
      break;
    case 'required':
      choice = { type: 'any' };
      break;
    case 'tool':
      choice = { type: 'tool', name: toolChoice.name };
      break;
    case 'none':
      if (parallelToolCalls !== undefined)
        losses.dropped('parallelToolCalls', 'tool_choice none has no parallel tool use setting');
      return { type: 'none' };
    default: {
      const unreachable: never = toolChoice;
      return unreachable;
    }
  }
  if (choice && parallelToolCalls !== undefined) choice.disable_parallel_tool_use = !parallelToolCalls;
  return choice;
}
