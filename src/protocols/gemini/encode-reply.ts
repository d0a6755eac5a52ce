import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { encodeGeminiUsage } from './encode-gemini-usage.js';
import { encodeGeminiParts } from './encode-parts.js';
import { readGeminiReplyExtensions } from './gemini-extensions.js';
import { encodeGeminiFinishReason } from './map-gemini-finish-reason.js';
import type { GeminiResponse } from './wire-types.js';

/**
 * A canonical reply as a GenerateContentResponse
 * (https://ai.google.dev/api/generate-content#generatecontentresponse) for a Gemini client: one
 * candidate, `usageMetadata`, `modelVersion`, `responseId`. Function calls carry their id, which
 * clients send back on the matching `functionResponse`.
 */
export function encodeGeminiReply(reply: CanonicalReply, losses: LossLog): GeminiResponse {
  const extensions = readGeminiReplyExtensions(reply.extensions);
  const parts = encodeGeminiParts(reply.parts, {
    path: 'reply',
    losses,
    role: 'model',
    sendId: () => true,
    toolName: () => undefined,
    target: 'client',
  });
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: encodeGeminiFinishReason(reply.finishReason),
        index: 0,
        ...extensions.candidate,
      },
    ],
    usageMetadata: encodeGeminiUsage(reply.usage),
    modelVersion: reply.model,
    responseId: reply.id,
    ...extensions.response,
  };
}
