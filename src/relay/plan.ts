import type { FileFetchOptions } from '../files/fetch-file-data.js';
import type { TokenEstimate } from '../billing/token-estimate.js';
import { LossLog } from '../ir/loss.js';
import type { CanonicalRequest, ReasoningEffort } from '../ir/request.js';
import { mapUpstreamModel } from '../providers/map-upstream-model.js';
import type { UpstreamEndpoint } from '../providers/provider-descriptor.js';
import { findProvider } from '../providers/registry.js';
import type { ClientProtocolName, ProtocolName, StreamEncoderOptions } from '../protocols/protocol-codec.js';
import { protocolOfEndpoint, protocols } from '../protocols/registry.js';
import { declaredUpstreamEndpoints } from '../routing/declared-upstream-endpoints.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import type { PriceRecord } from '../store/prices-repository.js';
import type { Cancellation } from './cancellation.js';
import type { OutgoingMultipart } from './outgoing-multipart.js';
import { convertReply, convertStream } from './convert.js';
import { convertingClientErrors } from './operations/conversion-errors.js';
import { passthroughReply, passthroughStream } from './passthrough.js';
import { resolveLinkedFiles } from './resolve-linked-files.js';
import type { ReplyTransform, StreamTransform } from './transforms.js';

/** How one request goes to one channel: the body to send and what to do with the reply. */
export interface UpstreamPlan {
  mode: 'passthrough' | 'convert';
  endpoint: UpstreamEndpoint;
  upstreamModel: string;
  body: Record<string, unknown>;
  /** The client's bytes, when `body` is the client's body unchanged: sent instead of serialising it. */
  bodyBytes?: Buffer | undefined;
  /** A form sent instead of `body` (speech to text, whose `body` holds its text fields). */
  multipart?: OutgoingMultipart | undefined;
  /** A reply that is not JSON is taken as it is (a transcript as text, SRT or WebVTT). */
  repliesInText?: boolean | undefined;
  /** Client headers that travel on (same-protocol only), such as `anthropic-beta`. */
  extraHeaders: Record<string, string>;
  /** The client's query string (same-protocol only), such as `beta=true`. */
  query: string;
  reply(): ReplyTransform;
  /** Absent for operations that never stream. */
  stream?(): StreamTransform;
  /**
   * The content type a stream goes out with, given the upstream's (speech audio), where it is not
   * server-sent events.
   */
  streamContentType?(upstream: string | undefined): string | undefined;
}

export interface PlannerInput {
  body: Record<string, unknown>;
  bodyBytes: Buffer;
  /** The public model (modifier stripped) and the model name as the client wrote it. */
  model: string;
  /** What the model is billed at. */
  price: PriceRecord;
  requestedModel: string;
  effort: ReasoningEffort | undefined;
  stream: boolean;
  /** Whether an OpenAI chat client asked for the usage chunk (`stream_options.include_usage`). */
  clientWantsUsage: boolean;
  inputTokens: TokenEstimate;
  defaultMaxTokens: number;
  forwardedHeaders: Record<string, string>;
  query: string;
  /** How linked files are downloaded, for upstreams that need them inline. */
  files: Omit<FileFetchOptions, 'signal'>;
  /** Cancels the downloads when the request ends from the gateway's side. */
  cancellation: Cancellation;
  losses: LossLog;
}

/** Upstream protocols that cannot fetch linked files themselves: links are downloaded first. */
const needsInlineFiles: ReadonlySet<ProtocolName> = new Set([
  'anthropic-messages',
  'gemini',
  'bedrock-converse',
]);

/**
 * Plans each channel: passthrough when the upstream speaks the client's protocol (DESIGN
 * principle 3), otherwise decode -> canonical -> encode into the upstream's protocol. An effort
 * modifier is applied through the canonical form even on the same protocol.
 */
export function createPlanner(
  clientProtocol: ClientProtocolName,
  input: PlannerInput,
): (channel: RoutableChannel) => Promise<UpstreamPlan | undefined> {
  const client = protocols[clientProtocol];
  let canonical: CanonicalRequest | undefined;
  const decoded = () => {
    if (!canonical) {
      canonical = convertingClientErrors(() =>
        client.codec.decodeRequest(input.body, {
          losses: input.losses,
          model: input.model,
          stream: input.stream,
        }),
      );
      if (input.effort)
        canonical = { ...canonical, reasoning: { ...canonical.reasoning, effort: input.effort } };
    }
    return canonical;
  };
  const withFiles = new Map<ProtocolName, Promise<CanonicalRequest>>();
  const resolvedFor = (protocol: ProtocolName) => {
    let resolved = withFiles.get(protocol);
    if (!resolved) {
      resolved = needsInlineFiles.has(protocol)
        ? resolveLinkedFiles(decoded(), { ...input.files, cancellation: input.cancellation })
        : Promise.resolve(decoded());
      withFiles.set(protocol, resolved);
    }
    return resolved;
  };

  return async (channel) => {
    const provider = findProvider(channel.type);
    if (!provider) return undefined;
    const upstreamModel = mapUpstreamModel(channel, input.model);
    const served = declaredUpstreamEndpoints(
      channel.endpoints,
      provider.upstreamEndpoints(upstreamModel, channel.config),
    );
    if (served.includes(client.upstreamEndpoint) && !input.effort) {
      const prepared = client.passthrough.prepareRequest(input.body, { upstreamModel });
      return {
        mode: 'passthrough',
        endpoint: client.upstreamEndpoint,
        upstreamModel,
        body: prepared.body,
        bodyBytes: prepared.body === input.body ? input.bodyBytes : undefined,
        extraHeaders: input.forwardedHeaders,
        query: input.query,
        reply: () => passthroughReply(client.passthrough, client.codec),
        stream: () => passthroughStream(client.passthrough, { hideUsageEvents: prepared.hideUsageEvents }),
      };
    }
    const upstreamProtocol = served.includes(client.upstreamEndpoint)
      ? clientProtocol
      : served.map(protocolOfEndpoint).find((name) => name !== undefined);
    if (!upstreamProtocol) return undefined;
    const upstream = protocols[upstreamProtocol];
    const request = { ...(await resolvedFor(upstreamProtocol)), model: upstreamModel, stream: input.stream };
    const body = upstream.codec.encodeRequest(request, {
      losses: input.losses,
      defaultMaxTokens: input.defaultMaxTokens,
      chatReasoningField: provider.reasoningField,
    });
    return {
      mode: 'convert',
      endpoint: upstream.upstreamEndpoint,
      upstreamModel,
      body,
      extraHeaders: {},
      query: '',
      reply: () =>
        convertReply({
          upstream: upstream.codec,
          client: client.codec,
          losses: input.losses,
          model: input.requestedModel,
        }),
      stream: () =>
        convertStream({
          upstream: upstream.codec,
          client: client.codec,
          losses: input.losses,
          encoder: new EncoderOptions(input),
        }),
    };
  };
}

/**
 * A converted stream's encoder options. The input estimate is counted when an encoder reads it
 * (only streams whose upstream reports no input count do). A getter on the class, not in an object
 * literal: a literal with a getter gets a hidden class of its own each time, in the old generation.
 */
class EncoderOptions implements StreamEncoderOptions {
  readonly losses: LossLog;
  readonly model: string;
  readonly includeUsage: boolean;
  readonly #inputTokens: TokenEstimate;

  constructor(input: PlannerInput) {
    this.losses = input.losses;
    this.model = input.requestedModel;
    this.includeUsage = input.clientWantsUsage;
    this.#inputTokens = input.inputTokens;
  }

  get estimatedInputTokens(): number {
    return this.#inputTokens.count();
  }
}
