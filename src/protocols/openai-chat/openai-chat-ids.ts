import { createHash } from 'node:crypto';

/**
 * Ids in chat completions form. A reply id keeps the upstream's when it already is a
 * `chatcmpl-` id and is prefixed otherwise (`msg_01...` -> `chatcmpl-msg_01...`), so it stays
 * traceable; tool call ids are kept unchanged because clients send them back in `tool` messages.
 * Where the upstream gave none, a deterministic id is derived from what is known.
 */
export function chatCompletionId(id: string | undefined, seed: string): string {
  if (id?.startsWith('chatcmpl-')) return id;
  if (id) return `chatcmpl-${id}`;
  return `chatcmpl-${digest(seed)}`;
}

export function toolCallId(seed: string): string {
  return `call_${digest(seed)}`;
}

function digest(seed: string): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, 24);
}
