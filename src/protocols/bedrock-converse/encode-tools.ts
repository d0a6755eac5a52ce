import type { LossLog } from '../../ir/loss.js';
import type { Tool, ToolChoice } from '../../ir/request.js';
import { asJsonObject, asString } from '../wire-json.js';
import { BEDROCK_CONVERSE } from './bedrock-converse-extensions.js';
import { cachePointOf } from './encode-content-block.js';
import {
  keptBlockOf,
  type ConverseMessage,
  type ConverseTool,
  type ConverseToolChoice,
} from './wire-types.js';

/** What a placeholder tool says of itself (see `encodeToolConfig`). */
const PLACEHOLDER_DESCRIPTION = 'A tool used earlier in this conversation.';

/**
 * Canonical tools and tool choice -> `toolConfig`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolConfiguration.html).
 * Function tools become tool specifications (a cache point after a marked one); provider tools of
 * this protocol go back as they came; other protocols' provider tools have no Converse form.
 *
 * Converse refuses `toolUse` and `toolResult` blocks in a request without `toolConfig` ("The
 * toolConfig field must be defined when using toolUse and toolResult content blocks"), so a
 * conversation whose tools are gone gets one placeholder specification per tool it used.
 */
export function encodeToolConfig(options: {
  tools: Tool[];
  toolChoice: ToolChoice | undefined;
  parallelToolCalls: boolean | undefined;
  messages: ConverseMessage[];
  losses: LossLog;
}): { tools: ConverseTool[]; toolChoice?: ConverseToolChoice } | undefined {
  const { losses } = options;
  if (options.parallelToolCalls === false)
    losses.dropped('parallelToolCalls', 'Converse has no setting for parallel tool calls');
  const usedTools = toolNamesIn(options.messages);
  let tools = encodeTools(options.tools, losses);
  let choice = encodeToolChoice(options.toolChoice);
  if (options.toolChoice?.type === 'none') {
    if (usedTools.size === 0) {
      if (tools.length > 0)
        losses.dropped('tools', 'Converse has no tool choice none: the tools are left out');
      return undefined;
    }
    losses.coerced('toolChoice', 'Converse has no tool choice none, and the conversation uses tools: auto');
    choice = undefined;
  }
  if (!tools.some((tool) => 'toolSpec' in tool) && usedTools.size > 0) {
    losses.coerced('tools', 'Converse needs tools for a conversation that used them: placeholders sent');
    tools = [...tools, ...[...usedTools].map(placeholderTool)];
  }
  if (tools.length === 0) {
    if (options.toolChoice) losses.dropped('toolChoice', 'Converse accepts a tool choice only with tools');
    return undefined;
  }
  return choice ? { tools, toolChoice: choice } : { tools };
}

function encodeTools(tools: Tool[], losses: LossLog): ConverseTool[] {
  const encoded: ConverseTool[] = [];
  tools.forEach((tool, index) => {
    switch (tool.type) {
      case 'function': {
        const json =
          tool.parameters.type === undefined ? { type: 'object', ...tool.parameters } : tool.parameters;
        encoded.push({
          toolSpec: {
            name: tool.name,
            ...(tool.description !== undefined ? { description: tool.description } : {}),
            inputSchema: { json },
            ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
          },
        });
        const cachePoint = cachePointOf(tool.cacheControl);
        if (cachePoint) encoded.push(cachePoint);
        break;
      }
      case 'provider':
        if (tool.protocol === BEDROCK_CONVERSE) encoded.push(keptBlockOf(tool.value));
        else losses.dropped(`tools[${index}]`, `no Converse form for this ${tool.protocol} provider tool`);
        break;
      default: {
        const unreachable: never = tool;
        return unreachable;
      }
    }
  });
  return encoded;
}

/** `ToolChoice` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolChoice.html) */
function encodeToolChoice(choice: ToolChoice | undefined): ConverseToolChoice | undefined {
  switch (choice?.type) {
    case undefined:
    case 'none':
      return undefined;
    case 'auto':
      return { auto: {} };
    case 'required':
      return { any: {} };
    case 'tool':
      return { tool: { name: choice.name } };
    default: {
      const unreachable: never = choice;
      return unreachable;
    }
  }
}

function toolNamesIn(messages: ConverseMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages)
    for (const block of message.content) {
      const name = 'toolUse' in block ? asString(asJsonObject(block.toolUse)?.name) : undefined;
      if (name !== undefined) names.add(name);
    }
  if (names.size === 0 && messages.some((message) => message.content.some((block) => 'toolResult' in block)))
    names.add('tool');
  return names;
}

function placeholderTool(name: string): ConverseTool {
  return {
    toolSpec: { name, description: PLACEHOLDER_DESCRIPTION, inputSchema: { json: { type: 'object' } } },
  };
}
