import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { isJsonObject } from '../wire-json.js';
import { BEDROCK_CONVERSE } from './bedrock-converse-extensions.js';
import { cachePointOf, encodePart, type PartContext } from './encode-content-block.js';
import type { DocumentNames } from './encode-file-block.js';
import {
  keptBlockOf,
  type ConverseContentBlock,
  type ConverseMessage,
  type ConverseSystemBlock,
} from './wire-types.js';

interface Turn {
  role: 'user' | 'assistant';
  /** The blocks of each part, a part's cache point with it. */
  groups: ConverseContentBlock[][];
}

export interface EncodedConversation {
  system: ConverseSystemBlock[];
  messages: ConverseMessage[];
}

/**
 * Canonical system parts and messages -> `system` and `messages`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html). Converse
 * alternates user and assistant turns and opens with a user turn: tool results travel in user
 * turns, ahead of the turn's other content; consecutive turns of one role are merged; assistant
 * turns before the first user turn are dropped. Converse has one system prompt, so system messages
 * join it, those after the conversation started with a loss.
 */
export function encodeConversation(options: {
  system: Part[];
  messages: Message[];
  losses: LossLog;
  documentNames: DocumentNames;
  unsignedReasoning: PartContext['unsignedReasoning'];
}): EncodedConversation {
  const { losses } = options;
  const system: ConverseSystemBlock[] = [];
  options.system.forEach((part, index) =>
    system.push(...encodeSystemPart(part, { path: `system[${index}]`, losses })),
  );
  const turns: Turn[] = [];
  options.messages.forEach((message, messageIndex) => {
    const path = `messages[${messageIndex}]`;
    if (message.name !== undefined)
      losses.dropped(`${path}.name`, 'Converse messages carry no participant name');
    if (message.role === 'system') {
      if (turns.length > 0)
        losses.coerced(path, 'Converse has no system message inside the conversation: moved to system');
      message.parts.forEach((part, index) =>
        system.push(...encodeSystemPart(part, { path: `${path}.parts[${index}]`, losses })),
      );
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const groups = message.parts
      .map((part, index) =>
        encodePart(part, {
          path: `${path}.parts[${index}]`,
          losses,
          role,
          documentNames: options.documentNames,
          unsignedReasoning: options.unsignedReasoning,
        }),
      )
      .filter((group) => group.length > 0);
    if (groups.length === 0) {
      losses.dropped(path, 'Converse refuses a message without content');
      return;
    }
    if (turns.length === 0 && role === 'assistant') {
      losses.dropped(path, 'a Converse conversation opens with a user turn');
      return;
    }
    const previous = turns.at(-1);
    if (previous?.role === role) previous.groups.push(...groups);
    else turns.push({ role, groups });
  });
  return { system, messages: turns.map(encodeTurn) };
}

function encodeTurn(turn: Turn): ConverseMessage {
  const isToolResult = (group: ConverseContentBlock[]) => group[0] !== undefined && 'toolResult' in group[0];
  const groups =
    turn.role === 'user'
      ? [...turn.groups.filter(isToolResult), ...turn.groups.filter((group) => !isToolResult(group))]
      : turn.groups;
  return { role: turn.role, content: groups.flat() };
}

/** `SystemContentBlock`: text (and its cache point), or a system block of this protocol kept whole. */
function encodeSystemPart(part: Part, context: { path: string; losses: LossLog }): ConverseSystemBlock[] {
  if (part.type === 'text') {
    if (part.text.trim().length === 0) {
      context.losses.dropped(context.path, 'Converse refuses blank text blocks');
      return [];
    }
    const cachePoint = cachePointOf(part.cacheControl);
    return cachePoint ? [{ text: part.text }, cachePoint] : [{ text: part.text }];
  }
  if (part.type === 'raw' && part.protocol === BEDROCK_CONVERSE && isJsonObject(part.value))
    return [keptBlockOf(part.value)];
  context.losses.dropped(context.path, `Converse system content is text only, not ${part.type}`);
  return [];
}
