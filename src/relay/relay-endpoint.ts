import { GatewayError } from '../errors/gateway-error.js';
import type { ErrorShape } from '../http/request-context.js';
import type { ClientProtocolName } from '../protocols/protocol-codec.js';
import { protocols } from '../protocols/registry.js';
import type { EndpointType } from '../routing/endpoint-type.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import { alphaSearchOperation } from './operations/alpha-search-operation.js';
import { embeddingsOperation } from './operations/embeddings-operation.js';
import {
  geminiBatchEmbedContentsOperation,
  geminiEmbedContentOperation,
} from './operations/gemini-embed-operation.js';
import { imageGenerationOperation } from './operations/image-generation-operation.js';
import { upstreamServes } from './operations/json-plan.js';
import { protocolOperation } from './operations/protocol-operation.js';
import { rerankOperation } from './operations/rerank-operation.js';
import { speechOperation } from './operations/speech-operation.js';
import { speechToTextOperation } from './operations/speech-to-text-operation.js';
import { checkSpeechRequest } from '../protocols/openai-audio/check-speech-request.js';
import { responsesCompactOperation } from './operations/responses-compact-operation.js';
import type { RelayOperation } from './relay-operation.js';

/** One client-facing relay operation: where its model comes from, what it requires, who serves it. */
export interface RelayEndpoint {
  /** Recorded in usage logs. */
  name: string;
  /** Shape of errors raised after authentication and model selection (client-api section 7). */
  errorShape: ErrorShape;
  /** Top-level body field that must be present (`field <name> is required`). */
  requiredField: string | undefined;
  /** Whether a channel serving the (public) model can take this operation. */
  serves(channel: RoutableChannel, model: string): boolean;
  /** Endpoint-specific body rules that need no upstream. */
  validateBody(body: Record<string, unknown>): void;
  /** The client protocol of a conversational endpoint: what its body is read as. */
  protocol?: ClientProtocolName | undefined;
  /** The body may name fallback models in `models` (admin-api section 11.3). */
  takesFallbackModels?: boolean | undefined;
  /** How the gateway relays this endpoint; absent: no channel serves it. */
  operation?: RelayOperation | undefined;
  /** Streaming decided by the path rather than the body (Gemini's two methods). */
  stream?: boolean | undefined;
  /**
   * The client path named in `channel does not support <path>`, the answer when the model's
   * channels exist but none takes this endpoint; without it, that is `No available channel`.
   */
  refusalPath?: string | undefined;
}

const anyChannel = () => true;
const noRules = () => undefined;
const noChannel = () => false;
/** Channels that list `type` for the model (their `endpoints`, else the types derived for it). */
const declaring = (type: EndpointType) => (channel: RoutableChannel, model: string) =>
  channel.endpointTypesFor(model).includes(type);

/** The conversational endpoint types: a channel that lists one serves them all, by conversion (client-api 4.9). */
const CONVERSATIONAL: readonly EndpointType[] = ['openai', 'openai-response', 'anthropic', 'gemini'];
const conversing = (channel: RoutableChannel, model: string) =>
  channel.endpointTypesFor(model).some((type) => CONVERSATIONAL.includes(type));

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

/**
 * A conversational endpoint (chat completions, responses, messages, generateContent): relayed by
 * its protocol's operation, its body's flags checked by that protocol's passthrough.
 */
function conversational(
  name: string,
  protocol: ClientProtocolName,
  options: Partial<Omit<RelayEndpoint, 'name' | 'operation' | 'validateBody'>> = {},
): RelayEndpoint {
  return endpoint(name, {
    serves: conversing,
    protocol,
    takesFallbackModels: protocol !== 'gemini',
    operation: protocolOperation(protocol),
    validateBody: protocols[protocol].passthrough.checkFlags,
    ...options,
  });
}

/**
 * Channels that declare image generation, and every Gemini channel that converses: a Gemini model
 * that is not Imagen must hear that it generates through generateContent (client-api 4.6), not
 * `No available channel`.
 */
const imageChannel = (channel: RoutableChannel, model: string) =>
  declaring('image-generation')(channel, model) ||
  (conversing(channel, model) && upstreamServes(channel, 'gemini-predict', model));

/**
 * `n` of image generation: an integer from 1 to 128 (client-api 4.6). Null is absent, one image,
 * as OpenAI takes it (`n?: number | null` in the SDK) and as the codec and the pre-charge read it.
 */
function checkImageCount(body: Record<string, unknown>): void {
  const { n } = body;
  if (n === undefined || n === null) return;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 128)
    throw new GatewayError('image_count_out_of_range');
}

/** A rerank needs documents to order as well as its query (admin-api section 6). */
function requireDocuments(body: Record<string, unknown>): void {
  if (body.documents === undefined) throw new GatewayError('field_required', { field: 'documents' });
}

export const relayEndpoints = {
  chatCompletions: conversational('chat-completions', 'openai-chat', { requiredField: 'messages' }),
  responses: conversational('responses', 'openai-responses'),
  responsesCompact: endpoint('responses-compact', {
    serves: declaring('openai-response-compact'),
    operation: responsesCompactOperation,
    refusalPath: '/v1/responses/compact',
  }),
  alphaSearch: endpoint('alpha-search', {
    serves: declaring('openai-alpha-search'),
    operation: alphaSearchOperation,
    refusalPath: '/v1/alpha/search',
  }),
  imageGenerations: endpoint('image-generations', {
    requiredField: 'prompt',
    serves: imageChannel,
    validateBody: checkImageCount,
    operation: imageGenerationOperation,
  }),
  messages: conversational('messages', 'anthropic-messages', {
    errorShape: 'anthropic',
    requiredField: 'messages',
  }),
  generateContent: conversational('generate-content', 'gemini', { requiredField: 'contents', stream: false }),
  streamGenerateContent: conversational('stream-generate-content', 'gemini', {
    requiredField: 'contents',
    stream: true,
  }),
  embeddings: endpoint('embeddings', {
    requiredField: 'input',
    serves: declaring('embeddings'),
    operation: embeddingsOperation,
  }),
  geminiEmbedContent: endpoint('embed-content', {
    requiredField: 'content',
    serves: declaring('embeddings'),
    operation: geminiEmbedContentOperation,
    stream: false,
  }),
  geminiBatchEmbedContents: endpoint('batch-embed-contents', {
    requiredField: 'requests',
    serves: declaring('embeddings'),
    operation: geminiBatchEmbedContentsOperation,
    stream: false,
  }),
  rerank: endpoint('rerank', {
    serves: declaring('jina-rerank'),
    operation: rerankOperation,
    requiredField: 'query',
    validateBody: requireDocuments,
  }),
  speech: endpoint('audio-speech', {
    requiredField: 'input',
    serves: declaring('audio-speech'),
    validateBody: checkSpeechRequest,
    operation: speechOperation,
  }),
  transcriptions: endpoint('audio-transcriptions', {
    serves: declaring('audio-transcription'),
    operation: speechToTextOperation('openai-audio-transcriptions'),
  }),
  translations: endpoint('audio-translations', {
    serves: declaring('audio-transcription'),
    operation: speechToTextOperation('openai-audio-translations'),
  }),
  // Not relayed: it answers `No available channel` (client-api 4.10).
  video: endpoint('video', { serves: noChannel }),
} satisfies Record<string, RelayEndpoint>;
