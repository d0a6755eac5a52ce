import type { ProtocolCodec } from '../protocol-codec.js';
import { decodeReply } from './decode-reply.js';
import { decodeRequest } from './decode-request.js';
import { createConverseStreamDecoder } from './decode-stream.js';
import { encodeReply } from './encode-reply.js';
import { encodeRequest } from './encode-request.js';
import { createConverseStreamEncoder } from './encode-stream.js';

/**
 * AWS Bedrock Converse, `POST /model/{modelId}/converse` and `/converse-stream`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html), both
 * directions. Upstream only: no client endpoint speaks it, so it has no passthrough.
 */
export const bedrockConverseCodec: ProtocolCodec = {
  name: 'bedrock-converse',
  decodeRequest,
  encodeRequest,
  decodeReply,
  encodeReply,
  createStreamDecoder: createConverseStreamDecoder,
  createStreamEncoder: createConverseStreamEncoder,
};
