import type { Part } from '../../ir/content.js';

/**
 * Parts of one turn, with each Gemini thought signature that travelled as an empty `thinking`
 * block right after a `tool_use` block given back to that tool call. An Anthropic reply has no
 * field for a signature on a tool call, so the gateway writes a Gemini model's call signature
 * there (after the call: a stream knows it only when the call ends); Gemini needs it back on
 * the call (https://ai.google.dev/gemini-api/docs/thought-signatures).
 */
export function attachToolCallSignatures(parts: Part[]): Part[] {
  const attached: Part[] = [];
  for (const part of parts) {
    const previous = attached.at(-1);
    if (
      part.type === 'reasoning' &&
      part.text === '' &&
      part.signature?.issuer === 'gemini' &&
      part.redactedData === undefined &&
      previous?.type === 'tool-call' &&
      previous.signature === undefined
    ) {
      attached[attached.length - 1] = { ...previous, signature: part.signature };
      continue;
    }
    attached.push(part);
  }
  return attached;
}
