import { GatewayError } from '../errors/gateway-error.js';
import type { ProtocolName } from '../protocols/protocol-codec.js';
import type { ErrorShape } from '../http/request-context.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';

/** One client-facing relay operation: where its model comes from, what it requires, who serves it. */
export interface RelayEndpoint {
  /** Recorded in usage logs. */
  name: string;
  /** Shape of errors raised after authentication and model selection (client-api section 7). */
  errorShape: ErrorShape;
  /** Top-level body field that must be present (`field <name> is required`). */
  requiredField: string | undefined;
  /** Whether a channel serving the model can take this operation. */
  serves(channel: RoutableChannel): boolean;
  /** Endpoint-specific body rules that need no upstream. */
  validateBody(body: Record<string, unknown>): void;
  /** The wire protocol of the body, when the gateway relays this endpoint. */
  protocol?: ProtocolName | undefined;
  /** Streaming decided by the path rather than the body (Gemini's two methods). */
  stream?: boolean | undefined;
}

const anyChannel = () => true;
const noRules = () => undefined;
const noChannelYet = () => false;
const declaring = (type: string) => (channel: RoutableChannel) =>
  channel.endpointTypes.includes(type as never);

function endpoint(name: string, options: Partial<Omit<RelayEndpoint, 'name'>> = {}): RelayEndpoint {
  return {
    name,
    errorShape: 'openai',
    requiredField: undefined,
    serves: anyChannel,
    validateBody: noRules,
    ...options,
  };
}

/** `n` of image generation: an integer from 1 to 128 (client-api 4.6). */
function checkImageCount(body: Record<string, unknown>): void {
  const { n } = body;
  if (n === undefined) return;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 128)
    throw new GatewayError('image_count_out_of_range');
}

export const relayEndpoints = {
  chatCompletions: endpoint('chat-completions', { requiredField: 'messages', protocol: 'openai-chat' }),
  responses: endpoint('responses', { protocol: 'openai-responses' }),
  responsesCompact: endpoint('responses-compact', { serves: declaring('openai-response-compact') }),
  alphaSearch: endpoint('alpha-search', { serves: declaring('openai-alpha-search') }),
  imageGenerations: endpoint('image-generations', { validateBody: checkImageCount }),
  messages: endpoint('messages', {
    errorShape: 'anthropic',
    requiredField: 'messages',
    protocol: 'anthropic-messages',
  }),
  generateContent: endpoint('generate-content', {
    requiredField: 'contents',
    protocol: 'gemini',
    stream: false,
  }),
  streamGenerateContent: endpoint('stream-generate-content', {
    requiredField: 'contents',
    protocol: 'gemini',
    stream: true,
  }),
  // No channel type relays these kinds yet; they answer `No available channel`.
  embeddings: endpoint('embeddings', { serves: noChannelYet }),
  rerank: endpoint('rerank', { serves: noChannelYet }),
  audio: endpoint('audio', { serves: noChannelYet }),
  video: endpoint('video', { serves: noChannelYet }),
} satisfies Record<string, RelayEndpoint>;
