import type { ProtocolCodec } from '../protocol-codec.js';
import { decodeReply } from './decode-reply.js';
import { decodeRequest } from './decode-request.js';
import { createAnthropicStreamDecoder } from './decode-stream.js';
import { encodeReply } from './encode-reply.js';
import { encodeRequest } from './encode-request.js';
import { createAnthropicStreamEncoder } from './encode-stream.js';

/** Anthropic Messages (`POST /v1/messages`, https://docs.anthropic.com/en/api/messages), both directions. */
export const anthropicMessagesCodec: ProtocolCodec = {
  name: 'anthropic-messages',
  decodeRequest,
  encodeRequest,
  decodeReply,
  encodeReply,
  createStreamDecoder: createAnthropicStreamDecoder,
  createStreamEncoder: createAnthropicStreamEncoder,
};
