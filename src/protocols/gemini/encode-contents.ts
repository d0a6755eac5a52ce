import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { encodeGeminiParts } from './encode-parts.js';
import { signCurrentTurnCalls } from './sign-current-turn-calls.js';
import type { GeminiContent, GeminiTextPart } from './wire-types.js';

export interface EncodedContents {
  contents: GeminiContent[];
  /** Parts of `systemInstruction`, system messages included. */
  system: GeminiTextPart[];
}

/**
 * Canonical messages as `contents` (https://ai.google.dev/api/generate-content#request-body):
 * assistant turns are `model`, user turns and tool results `user`. A tool message joins the user
 * turn next to it, and the user message right after it joins too, because Gemini wants the
 * responses to one turn's calls together (and a client's own turn of responses and text decodes
 * to exactly that pair). An assistant message that calls functions joins the model turn before
 * it, as a turn of calls must follow a user turn or a turn of responses. System messages move into
 * `systemInstruction`, Gemini's only place for them. A message left with no part Gemini takes
 * (empty text, another vendor's reasoning) is left out, as Gemini refuses a content without parts.
 * The calls of the current turn get the signature Gemini requires (see `signCurrentTurnCalls`).
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
  const contents: GeminiContent[] = [];
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
      target: 'upstream',
    });
    if (parts.length === 0) {
      losses.dropped(
        path,
        message.parts.length === 0 ? 'an empty message' : 'nothing Gemini takes is left in this message',
      );
      continue;
    }
    const hasResponses = parts.some((part) => 'functionResponse' in part);
    const hasCalls = parts.some((part) => 'functionCall' in part);
    const previous = contents.at(-1);
    if (previous?.role === 'user' && role === 'user' && (previousHasResponses || hasResponses))
      previous.parts.push(...parts);
    else if (previous?.role === 'model' && role === 'model' && hasCalls) previous.parts.push(...parts);
    else contents.push({ role, parts });
    previousHasResponses = hasResponses;
  }
  signCurrentTurnCalls(contents, losses);
  return { contents, system };
}

/** `systemInstruction` takes text only, and no empty text. */
function encodeSystem(parts: Part[], path: string, losses: LossLog): GeminiTextPart[] {
  const out: GeminiTextPart[] = [];
  for (const [index, part] of parts.entries()) {
    const partPath = path === 'system' ? `system[${index}]` : `${path}.parts[${index}]`;
    if (part.type !== 'text') {
      losses.dropped(partPath, `a ${part.type} part in system instructions`);
      continue;
    }
    if (part.text.trim() === '') {
      losses.dropped(partPath, part.text === '' ? 'Gemini refuses empty text parts' : 'whitespace-only text');
      continue;
    }
    if (part.cacheControl) losses.dropped(`${partPath}.cacheControl`, 'Gemini has no prompt-cache markers');
    out.push({ text: part.text });
  }
  return out;
}
