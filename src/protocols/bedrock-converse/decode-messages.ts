import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { asJsonObject, asString, isJsonObject } from '../wire-json.js';
import { BEDROCK_CONVERSE } from './bedrock-converse-extensions.js';
import { decodeCachePoint, decodeContentBlocks } from './decode-content-block.js';

/**
 * `messages` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html).
 * Converse alternates user and assistant turns, so consecutive turns of one role are one turn, merged
 * here as the encoder merges them; a user turn's tool results become one `tool` message ahead of the
 * turn's other content.
 */
export function decodeMessages(value: unknown, losses: LossLog): Message[] {
  if (!Array.isArray(value)) throw new InvalidRequestError('messages', 'must be an array of messages');
  const turns: { role: 'user' | 'assistant'; parts: Part[] }[] = [];
  value.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isJsonObject(message)) throw new InvalidRequestError(path, 'must be an object');
    const role = message.role;
    if (role !== 'user' && role !== 'assistant')
      throw new InvalidRequestError(`${path}.role`, 'must be user or assistant');
    const parts = decodeContentBlocks(message.content, { path: `${path}.content`, losses, strict: true });
    const previous = turns.at(-1);
    if (previous?.role === role) previous.parts.push(...parts);
    else turns.push({ role, parts });
  });
  const messages: Message[] = [];
  for (const turn of turns) {
    if (turn.role === 'assistant') {
      if (turn.parts.length > 0) messages.push({ role: 'assistant', parts: turn.parts });
      continue;
    }
    const results = turn.parts.filter((part) => part.type === 'tool-result');
    const others = turn.parts.filter((part) => part.type !== 'tool-result');
    if (results.length > 0) messages.push({ role: 'tool', parts: results });
    if (others.length > 0) messages.push({ role: 'user', parts: others });
  }
  return messages;
}

/**
 * `system` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_SystemContentBlock.html):
 * text, with cache points after the text they mark; guard content and later kinds stay raw.
 */
export function decodeSystem(value: unknown, losses: LossLog): Part[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new InvalidRequestError('system', 'must be an array of system content blocks');
  const parts: Part[] = [];
  value.forEach((block, index) => {
    const path = `system[${index}]`;
    if (!isJsonObject(block)) throw new InvalidRequestError(path, 'must be an object');
    if (block.cachePoint !== undefined) {
      const previous = parts.at(-1);
      if (previous?.type === 'text') previous.cacheControl = decodeCachePoint(block.cachePoint);
      else losses.dropped(path, 'a cache point with no text before it has no canonical form');
      return;
    }
    const text = asString(block.text);
    if (text !== undefined) parts.push({ type: 'text', text });
    else if (block.text !== undefined) throw new InvalidRequestError(`${path}.text`, 'must be a string');
    else parts.push({ type: 'raw', protocol: BEDROCK_CONVERSE, value: asJsonObject(block) ?? {} });
  });
  return parts;
}
