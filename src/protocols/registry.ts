import type { UpstreamEndpoint } from '../providers/provider-descriptor.js';
import { anthropicMessagesCodec } from './anthropic-messages/codec.js';
import { anthropicMessagesPassthrough } from './anthropic-messages/passthrough.js';
import { bedrockConverseCodec } from './bedrock-converse/codec.js';
import { geminiCodec } from './gemini/codec.js';
import { geminiPassthrough } from './gemini/passthrough.js';
import { openAIChatCodec } from './openai-chat/codec.js';
import { openAIChatPassthrough } from './openai-chat/passthrough.js';
import { openAIResponsesCodec } from './openai-responses/codec.js';
import { openAIResponsesPassthrough } from './openai-responses/passthrough.js';
import type { PassthroughCodec } from './passthrough-codec.js';
import type { ClientProtocolName, ProtocolCodec, ProtocolName } from './protocol-codec.js';

interface ProtocolEntry {
  codec: ProtocolCodec;
  upstreamEndpoint: UpstreamEndpoint;
}

/** A protocol clients speak: a request in it may pass through to an upstream of the same protocol. */
interface ClientProtocolEntry extends ProtocolEntry {
  passthrough: PassthroughCodec;
}

type EntryOf<Name extends ProtocolName> = Name extends ClientProtocolName
  ? ClientProtocolEntry
  : ProtocolEntry;

/** Every wire protocol: its codec, its passthrough (client protocols), and the upstream endpoint that speaks it. */
export const protocols: { [Name in ProtocolName]: EntryOf<Name> } = {
  'openai-chat': {
    codec: openAIChatCodec,
    passthrough: openAIChatPassthrough,
    upstreamEndpoint: 'openai-chat',
  },
  'openai-responses': {
    codec: openAIResponsesCodec,
    passthrough: openAIResponsesPassthrough,
    upstreamEndpoint: 'openai-responses',
  },
  'anthropic-messages': {
    codec: anthropicMessagesCodec,
    passthrough: anthropicMessagesPassthrough,
    upstreamEndpoint: 'anthropic-messages',
  },
  gemini: { codec: geminiCodec, passthrough: geminiPassthrough, upstreamEndpoint: 'gemini-generate-content' },
  // Only upstreams speak it: nothing ever passes through to it.
  'bedrock-converse': { codec: bedrockConverseCodec, upstreamEndpoint: 'bedrock-converse' },
};

/** The protocol an upstream endpoint speaks, when the gateway has a codec for it. */
export function protocolOfEndpoint(endpoint: UpstreamEndpoint): ProtocolName | undefined {
  for (const [name, entry] of Object.entries(protocols)) {
    if (entry.upstreamEndpoint === endpoint) return name as ProtocolName;
  }
  return undefined;
}
