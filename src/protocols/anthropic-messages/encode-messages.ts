import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { encodeAssistantPart, encodeTextPart, encodeUserPart, isPlainText } from './encode-part.js';
import type { AnthropicContentBlock, AnthropicMessageParam, AnthropicTextBlock } from './wire-types.js';

type TurnRole = 'user' | 'assistant' | 'system';

interface Turn {
  role: TurnRole;
  blocks: AnthropicContentBlock[];
  /** The last canonical message merged into the turn, for losses. */
  path: string;
}

export interface EncodedConversation {
  system: string | AnthropicTextBlock[] | undefined;
  messages: AnthropicMessageParam[];
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
    if (blocks.length === 0) {
      // "all messages must have non-empty content except for the optional final assistant message"
      losses.dropped(path, 'Anthropic refuses a message without content');
      return;
    }
    if (turns.length === 0 && role === 'assistant') {
      // "messages: first message must use the "user" role": an opening assistant turn (a greeting
      // another protocol allows) has no place; system messages after it still join `system`.
      losses.dropped(path, 'an Anthropic conversation opens with a user turn');
      return;
    }
    leading = false;
    const previous = turns.at(-1);
    if (role !== 'system' && previous?.role === role) {
      previous.blocks.push(...blocks);
      previous.path = path;
    } else turns.push({ role, blocks, path });
  });
  trimFinalAssistantText(turns, losses);
  return { system: encodeSystem(systemParts, losses), messages: turns.map(encodeTurn) };
}

function encodeBlocks(
  parts: Part[],
  context: { role: TurnRole; path: string; losses: LossLog },
): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
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
function encodeSystemPart(
  part: Part,
  context: { path: string; losses: LossLog },
): AnthropicTextBlock | undefined {
  if (part.type === 'text') return encodeTextPart(part, context);
  context.losses.dropped(context.path, `Anthropic system content is text only, not ${part.type}`);
  return undefined;
}

/**
 * A conversation that ends on an assistant turn asks the model to continue it (prefill), and
 * Anthropic refuses one whose text ends in whitespace ("final assistant content cannot end with
 * trailing whitespace"), so that whitespace is trimmed.
 */
function trimFinalAssistantText(turns: Turn[], losses: LossLog): void {
  const last = turns.at(-1);
  if (last?.role !== 'assistant') return;
  const block = last.blocks.at(-1);
  if (block?.type !== 'text' || typeof block.text !== 'string') return;
  const trimmed = block.text.trimEnd();
  if (trimmed === block.text) return;
  losses.coerced(
    last.path,
    'Anthropic refuses a final assistant message ending in whitespace: trailing whitespace trimmed',
  );
  last.blocks[last.blocks.length - 1] = { ...block, text: trimmed };
}

function encodeTurn(turn: Turn): AnthropicMessageParam {
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
function plainString(blocks: AnthropicContentBlock[]): string | undefined {
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
): string | AnthropicTextBlock[] | undefined {
  if (parts.length === 0) return undefined;
  const [first] = parts;
  if (parts.length === 1 && first?.part.type === 'text' && isPlainText(first.part)) return first.part.text;
  const blocks: AnthropicTextBlock[] = [];
  for (const { part, path } of parts) {
    const block = encodeSystemPart(part, { path, losses });
    if (block) blocks.push(block);
  }
  return blocks.length > 0 ? blocks : undefined;
}
