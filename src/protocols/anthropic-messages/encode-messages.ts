import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { encodeAssistantPart, encodeTextPart, encodeUserPart, isPlainText } from './encode-part.js';
import type { JsonObject } from '../wire-json.js';

type TurnRole = 'user' | 'assistant' | 'system';

interface Turn {
  role: TurnRole;
  blocks: JsonObject[];
}

export interface EncodedConversation {
  system: string | JsonObject[] | undefined;
  messages: JsonObject[];
}

/**
 * Canonical system parts and messages -> `system` and `messages`
 * (https://docs.anthropic.com/en/api/messages#body-messages). Anthropic alternates user and
 * assistant turns: tool results travel in user turns, consecutive turns of one role are merged,
 * and a user turn's tool results come before its other content. System messages ahead of the
 * conversation join `system`; later ones stay in place as `system` messages. The conversation
 * opens with a user turn: assistant turns before it are dropped (recorded).
 */
export function encodeConversation(options: {
  system: Part[];
  messages: Message[];
  losses: LossLog;
}): EncodedConversation {
  const { losses } = options;
  const systemParts = options.system.map((part, index) => ({ part, path: `system[${index}]` }));
  let leading = true;
  const turns: Turn[] = [];
  options.messages.forEach((message, messageIndex) => {
    const path = `messages[${messageIndex}]`;
    if (message.name !== undefined)
      losses.dropped(`${path}.name`, 'Anthropic messages carry no participant name');
    if (message.role === 'system' && leading) {
      message.parts.forEach((part, index) => systemParts.push({ part, path: `${path}.parts[${index}]` }));
      return;
    }
    const role: TurnRole = message.role === 'tool' ? 'user' : message.role;
    const blocks = encodeBlocks(message.parts, { role, path, losses });
    if (blocks.length === 0) return;
    if (turns.length === 0 && role === 'assistant') {
      // "messages: first message must use the "user" role": an opening assistant turn (a greeting
      // another protocol allows) has no place; system messages after it still join `system`.
      losses.dropped(path, 'an Anthropic conversation opens with a user turn');
      return;
    }
    leading = false;
    const previous = turns.at(-1);
    if (role !== 'system' && previous?.role === role) previous.blocks.push(...blocks);
    else turns.push({ role, blocks });
  });
  return { system: encodeSystem(systemParts, losses), messages: turns.map(encodeTurn) };
}

function encodeBlocks(
  parts: Part[],
  context: { role: TurnRole; path: string; losses: LossLog },
): JsonObject[] {
  const blocks: JsonObject[] = [];
  parts.forEach((part, index) => {
    const partContext = { path: `${context.path}.parts[${index}]`, losses: context.losses };
    const block =
      context.role === 'assistant'
        ? encodeAssistantPart(part, partContext)
        : context.role === 'user'
          ? encodeUserPart(part, partContext)
          : encodeSystemPart(part, partContext);
    if (block) blocks.push(block);
  });
  return blocks;
}

/** System content is text blocks only. */
function encodeSystemPart(part: Part, context: { path: string; losses: LossLog }): JsonObject | undefined {
  if (part.type === 'text') return encodeTextPart(part, context);
  context.losses.dropped(context.path, `Anthropic system content is text only, not ${part.type}`);
  return undefined;
}

function encodeTurn(turn: Turn): JsonObject {
  const blocks =
    turn.role === 'user'
      ? [
          ...turn.blocks.filter((block) => block.type === 'tool_result'),
          ...turn.blocks.filter((block) => block.type !== 'tool_result'),
        ]
      : turn.blocks;
  return { role: turn.role, content: plainString(blocks) ?? blocks };
}

/** One plain text block is written as a string, as clients usually do. */
function plainString(blocks: JsonObject[]): string | undefined {
  const [only] = blocks;
  if (blocks.length !== 1 || !only || only.type !== 'text') return undefined;
  return Object.keys(only).length === 2 && typeof only.text === 'string' ? only.text : undefined;
}

/**
 * `system`: one plain text part as a string; several parts, cache markers or citations as text
 * blocks, so that each part (and its `cache_control`) keeps its place.
 */
function encodeSystem(
  parts: { part: Part; path: string }[],
  losses: LossLog,
): string | JsonObject[] | undefined {
  if (parts.length === 0) return undefined;
  const [first] = parts;
  if (parts.length === 1 && first?.part.type === 'text' && isPlainText(first.part)) return first.part.text;
  const blocks: JsonObject[] = [];
  for (const { part, path } of parts) {
    const block = encodeSystemPart(part, { path, losses });
    if (block) blocks.push(block);
  }
  return blocks.length > 0 ? blocks : undefined;
}
