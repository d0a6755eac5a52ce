import type { ProtocolCodec } from '../protocol-codec.js';
import { decodeGeminiReply } from './decode-reply.js';
import { decodeGeminiRequest } from './decode-request.js';
import { GeminiStreamDecoder } from './decode-stream.js';
import { encodeGeminiReply } from './encode-reply.js';
import { encodeGeminiRequest } from './encode-request.js';
import { GeminiStreamEncoder } from './encode-stream.js';

/**
 * Gemini generateContent, `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse` (https://ai.google.dev/api/generate-content), both directions.
 */
export const geminiCodec: ProtocolCodec = {
  name: 'gemini',
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeReply: decodeGeminiReply,
  encodeReply: encodeGeminiReply,
  createStreamDecoder: (losses) => new GeminiStreamDecoder(losses),
  createStreamEncoder: (options) => new GeminiStreamEncoder(options),
};
