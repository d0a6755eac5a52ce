import type { LossLog } from '../../ir/loss.js';
import type { Tool, ToolChoice } from '../../ir/request.js';
import type { JsonObject } from '../wire-json.js';
import { OPENAI_CHAT } from './openai-chat-extension.js';
import type { OpenAIChatFunctionTool, OpenAIChatToolChoice } from './wire-types.js';

export interface EncodedTools {
  tools: (OpenAIChatFunctionTool | JsonObject)[];
  webSearchOptions: JsonObject | undefined;
}

/**
 * Canonical tools -> `tools` and `web_search_options`
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools). A web search
 * tool of another protocol asks for the same thing; its settings (domains, uses) do not carry over.
 */
export function encodeTools(tools: readonly Tool[], losses: LossLog): EncodedTools {
  const encoded: (OpenAIChatFunctionTool | JsonObject)[] = [];
  let webSearchOptions: JsonObject | undefined;
  tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    switch (tool.type) {
      case 'function':
        if (tool.cacheControl)
          losses.dropped(`${path}.cache_control`, 'chat completions tools take no cache marker');
        encoded.push({
          type: 'function',
          function: {
            name: tool.name,
            ...(tool.description !== undefined && { description: tool.description }),
            parameters: tool.parameters,
            ...(tool.strict !== undefined && { strict: tool.strict }),
          },
        });
        return;
      case 'provider':
        if (tool.kind === 'web-search') {
          if (webSearchOptions) return losses.dropped(path, 'chat completions takes one web search');
          if (tool.protocol !== OPENAI_CHAT)
            losses.coerced(
              path,
              `the ${tool.protocol} web search tool goes as web_search_options without its settings`,
            );
          webSearchOptions = tool.protocol === OPENAI_CHAT ? tool.value : {};
          return;
        }
        if (tool.protocol === OPENAI_CHAT) encoded.push(tool.value);
        else losses.dropped(path, `the ${tool.protocol} provider tool has no chat completions form`);
        return;
      default: {
        const unreachable: never = tool;
        return unreachable;
      }
    }
  });
  return { tools: encoded, webSearchOptions };
}

/** https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice */
export function encodeToolChoice(choice: ToolChoice): OpenAIChatToolChoice {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default: {
      const unreachable: never = choice;
      return unreachable;
    }
  }
}
