import type { LossLog } from '../../ir/loss.js';
import { SKIP_THOUGHT_SIGNATURE } from './placeholder-signatures.js';
import type { GeminiContent } from './wire-types.js';

/**
 * Gemini 3 refuses a request whose current turn (every content after the last user content that
 * says more than function responses) has a model content whose first function call carries no
 * `thoughtSignature` ("Function call is missing a thought_signature in functionCall parts").
 * Such a call, whose signature was never Gemini's or was lost on the way, gets Google's
 * documented placeholder, recorded as coerced; a real signature is never replaced. Older models
 * accept the placeholder as well. https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export function signCurrentTurnCalls(contents: GeminiContent[], losses: LossLog): void {
  const start = contents.findLastIndex(
    (content) => content.role === 'user' && content.parts.some((part) => !('functionResponse' in part)),
  );
  for (const [index, content] of contents.entries()) {
    if (index <= start || content.role !== 'model') continue;
    const first = content.parts.find((part) => 'functionCall' in part);
    if (first === undefined || !('functionCall' in first) || first.thoughtSignature !== undefined) continue;
    first.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    losses.coerced(
      `contents[${index}].parts[${content.parts.indexOf(first)}].thoughtSignature`,
      `no Gemini signature for this call of the current turn; sent with ${SKIP_THOUGHT_SIGNATURE}`,
    );
  }
}
