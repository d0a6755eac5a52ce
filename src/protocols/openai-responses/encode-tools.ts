import type { Tool, ToolChoice } from '../../ir/request.js';
import type { EncodeContext } from './encode-content-part.js';
import type { JsonObject } from '../wire-json.js';
import { PROTOCOL, type RequestItemDetail } from './responses-extensions.js';
import type { ResponsesFunctionTool, ResponsesToolChoice } from './wire-types.js';

/**
 * Canonical tools as Responses `tools`. Function tools are flat. Responses makes functions strict
 * when `strict` is absent (https://platform.openai.com/docs/guides/migrate-to-responses), unlike the
 * other protocols, so a tool from another protocol with no `strict` is sent `strict: false`.
 */
export function encodeTools(options: {
  tools: Tool[];
  detail: RequestItemDetail;
  context: EncodeContext;
}): (ResponsesFunctionTool | JsonObject)[] {
  const { tools, detail, context } = options;
  const encoded: (ResponsesFunctionTool | JsonObject)[] = [];
  tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    const type = tool.type;
    switch (type) {
      case 'function': {
        const strict = tool.strict ?? (context.sameProtocol ? undefined : false);
        const wire: ResponsesFunctionTool = {
          type: 'function',
          name: tool.name,
          ...(tool.description !== undefined && { description: tool.description }),
          parameters: tool.parameters,
          ...(strict !== undefined && { strict }),
          ...detail.functionTools?.[tool.name],
        };
        if (tool.cacheControl)
          context.losses.dropped(`${path}.cache_control`, 'Responses tools carry no cache marker');
        encoded.push(wire);
        return;
      }
      case 'provider':
        if (tool.protocol === PROTOCOL) encoded.push(tool.value);
        else if (tool.kind === 'web-search') {
          context.losses.coerced(
            path,
            `the ${tool.protocol} web search tool is sent as Responses web_search, without its settings`,
          );
          encoded.push({ type: 'web_search' });
        } else {
          context.losses.dropped(
            path,
            `the ${tool.protocol} tool ${JSON.stringify(tool.value.type ?? '')} has no Responses form`,
          );
        }
        return;
      default: {
        const never: never = type;
        return never;
      }
    }
  });
  return encoded;
}

/** `tool_choice`: a named tool is a function choice (https://platform.openai.com/docs/guides/function-calling#tool-choice). */
export function encodeToolChoice(choice: ToolChoice): ResponsesToolChoice {
  const type = choice.type;
  switch (type) {
    case 'auto':
    case 'none':
    case 'required':
      return type;
    case 'tool':
      return { type: 'function', name: choice.name };
    default: {
      const never: never = type;
      return never;
    }
  }
}
