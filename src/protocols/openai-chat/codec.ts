import type { ProtocolCodec } from '../protocol-codec.js';
import { decodeOpenAIChatReply } from './decode-reply.js';
import { decodeOpenAIChatRequest } from './decode-request.js';
import { OpenAIChatStreamDecoder } from './decode-stream.js';
import { encodeOpenAIChatReply } from './encode-reply.js';
import { encodeOpenAIChatRequest } from './encode-request.js';
import { OpenAIChatStreamEncoder } from './encode-stream.js';
import { OPENAI_CHAT } from './openai-chat-extension.js';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), both directions
 * (https://platform.openai.com/docs/api-reference/chat). The stream encoder writes the usage chunk
 * only when `StreamEncoderOptions.includeUsage` says the client asked for it.
 */
export const openAIChatCodec: ProtocolCodec = {
  name: OPENAI_CHAT,
  decodeRequest: decodeOpenAIChatRequest,
  encodeRequest: encodeOpenAIChatRequest,
  decodeReply: decodeOpenAIChatReply,
  encodeReply: encodeOpenAIChatReply,
  createStreamDecoder: (losses) => new OpenAIChatStreamDecoder(losses),
  createStreamEncoder: (options) => new OpenAIChatStreamEncoder(options),
};
