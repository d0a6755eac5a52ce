import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { encodeGeminiParts } from './encode-parts.js';
import type { JsonObject } from '../wire-json.js';

export interface EncodedContents {
  contents: JsonObject[];
  /** Parts of `systemInstruction`, system messages included. */
  system: JsonObject[];
}

/**
 * Canonical messages as `contents` (https://ai.google.dev/api/generate-content#request-body):
 * assistant turns are `model`, user turns and tool results `user`. A tool message joins the user
 * turn next to it, and the user message right after it joins too, because Gemini wants the
 * responses to one turn's calls together (and a client's own turn of responses and text decodes
 * to exactly that pair). An assistant message that calls functions joins the model turn before
 * it, as a turn of calls must follow a user turn or a turn of responses. System messages move into
 * `systemInstruction`, Gemini's only place for them.
 */
export function encodeGeminiContents(
  request: { system: Part[]; messages: Message[] },
  options: { losses: LossLog; sendId: (id: string) => boolean },
): EncodedContents {
  const { losses } = options;
  const names = new Map<string, string>();
  for (const message of request.messages)
    for (const part of message.parts) if (part.type === 'tool-call') names.set(part.id, part.name);
  const toolName = (id: string) => names.get(id);

  const system = encodeSystem(request.system, 'system', losses);
  const contents: JsonObject[] = [];
  let previousHasResponses = false;

  for (const [index, message] of request.messages.entries()) {
    const path = `messages[${index}]`;
    if (message.name !== undefined) losses.dropped(`${path}.name`, 'Gemini has no participant names');
    if (message.role === 'system') {
      losses.coerced(path, 'a system message moved into systemInstruction');
      system.push(...encodeSystem(message.parts, `${path}`, losses));
      continue;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = encodeGeminiParts(message.parts, {
      path,
      losses,
      role,
      sendId: options.sendId,
      toolName,
      unsignedReasoning: 'drop',
      emptyText: 'drop',
    });
    if (parts.length === 0) {
      if (message.parts.length === 0) losses.dropped(path, 'an empty message');
      continue;
    }
    const hasResponses = parts.some((part) => part.functionResponse !== undefined);
    const hasCalls = parts.some((part) => part.functionCall !== undefined);
    const previous = contents.at(-1);
    if (previous?.role === 'user' && role === 'user' && (previousHasResponses || hasResponses))
      (previous.parts as JsonObject[]).push(...parts);
    else if (previous?.role === 'model' && role === 'model' && hasCalls)
      (previous.parts as JsonObject[]).push(...parts);
    else contents.push({ role, parts });
    previousHasResponses = hasResponses;
  }
  return { contents, system };
}

/** `systemInstruction` takes text only, and no empty text. */
function encodeSystem(parts: Part[], path: string, losses: LossLog): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [index, part] of parts.entries()) {
    const partPath = path === 'system' ? `system[${index}]` : `${path}.parts[${index}]`;
    if (part.type !== 'text') {
      losses.dropped(partPath, `a ${part.type} part in system instructions`);
      continue;
    }
    if (part.text === '') {
      losses.dropped(partPath, 'Gemini refuses empty text parts');
      continue;
    }
    if (part.cacheControl) losses.dropped(`${partPath}.cacheControl`, 'Gemini has no prompt-cache markers');
    out.push({ text: part.text });
  }
  return out;
}
