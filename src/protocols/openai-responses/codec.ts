import type { ProtocolCodec } from '../protocol-codec.js';
import { decodeOpenAIResponsesReply } from './decode-reply.js';
import { decodeOpenAIResponsesRequest } from './decode-request.js';
import { OpenAIResponsesStreamDecoder } from './decode-stream.js';
import { encodeOpenAIResponsesReply } from './encode-reply.js';
import { encodeOpenAIResponsesRequest } from './encode-request.js';
import { OpenAIResponsesStreamEncoder } from './encode-stream.js';
import { PROTOCOL } from './responses-extensions.js';

/** OpenAI Responses, `POST /v1/responses` (https://platform.openai.com/docs/api-reference/responses), both directions. */
export const openAIResponsesCodec: ProtocolCodec = {
  name: PROTOCOL,
  decodeRequest: decodeOpenAIResponsesRequest,
  encodeRequest: encodeOpenAIResponsesRequest,
  decodeReply: decodeOpenAIResponsesReply,
  encodeReply: encodeOpenAIResponsesReply,
  createStreamDecoder: (losses) => new OpenAIResponsesStreamDecoder(losses),
  createStreamEncoder: (options) => new OpenAIResponsesStreamEncoder(options),
};
