import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { ChatReasoningField } from '../protocols/protocol-codec.js';
import type { EndpointType } from '../routing/endpoint-type.js';
import type { ChannelConfig } from '../store/channels-repository.js';

/**
 * A wire endpoint an upstream serves itself, named after the protocol folder that speaks it.
 * Distinct from `EndpointType`: an anthropic channel serves clients of chat completions, but its
 * upstream only ever receives `anthropic-messages`.
 */
export type UpstreamEndpoint =
  | 'openai-chat'
  | 'openai-responses'
  | 'openai-responses-compact'
  | 'openai-alpha-search'
  | 'openai-images'
  | 'openai-embeddings'
  | 'jina-rerank'
  | 'openai-audio-speech'
  | 'openai-audio-transcriptions'
  | 'openai-audio-translations'
  /** `GET /v1/realtime?model=`, upgraded to a WebSocket: the Realtime API (admin-api section 14). */
  | 'openai-realtime'
  | 'anthropic-messages'
  | 'gemini-generate-content'
  | 'gemini-embed-content'
  | 'gemini-batch-embed-contents'
  | 'gemini-predict'
  /** `/model/{modelId}/converse`, or `/converse-stream` when the request streams. */
  | 'bedrock-converse';

export interface UpstreamUrlRequest {
  /** The channel's `base_url`, or the type's default origin for its config. */
  origin: string;
  /** The key of this call: a URL may name what the credential belongs to (Vertex's project). */
  key: string;
  /** The channel's `config`, already checked by `configSchema`. */
  config: ChannelConfig;
  endpoint: UpstreamEndpoint;
  /** The upstream model ID (after the channel's model mapping). */
  model: string;
  stream: boolean;
}

export interface UpstreamHeadersRequest {
  /** One of the channel's keys; '' for a type whose key is optional and a channel that has none. */
  key: string;
  config: ChannelConfig;
  /**
   * Headers to forward, such as the client's own `anthropic-version` or `anthropic-beta`. They win
   * over the provider's defaults but never over its credentials; credential headers among them are
   * dropped.
   */
  extraHeaders?: Readonly<Record<string, string>>;
}

/** The body and forwarded headers of one upstream call, before it is sent. */
export interface UpstreamPayload {
  body: Record<string, unknown>;
  extraHeaders: Readonly<Record<string, string>>;
  /**
   * The client's query string, without `?` (same-protocol calls only, such as `beta=true`). An
   * adapted payload without it keeps the request's; '' sends none (a URL of the vendor's own that
   * the client's query means nothing to).
   */
  query?: string;
}

/** A call ready to send but for credentials that depend on its final form. */
export interface AuthorizeRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  key: string;
  config: ChannelConfig;
  signal: AbortSignal | undefined;
  dispatcher: Dispatcher;
}

/**
 * Turns an upstream stream's bytes into server-sent events, for upstreams whose streams are framed
 * otherwise (Bedrock's AWS event stream), so that every protocol's stream readers read SSE.
 */
export interface StreamFraming {
  push(chunk: Buffer): string;
  /** Whether the stream ended inside a frame. */
  end(): { incomplete: boolean };
}

/** What the gateway knows of one upstream type: transport only (URL, auth, framing), no format logic. */
export interface ProviderDescriptor {
  type: string;
  /** The vendor's public origin for a channel without `base_url`; undefined: `base_url` is required. */
  defaultBaseUrl(config: ChannelConfig): string | undefined;
  /**
   * The channel `config` this type takes (admin-api section 5): a strict object, so an unknown
   * member is refused, with the type's defaults filled in.
   */
  configSchema: z.ZodType<ChannelConfig>;
  /** Whether a channel may have no key at all (local servers such as Ollama). */
  keyOptional?: boolean;
  /** A reason a key cannot be one of this type's credentials, for the management API. */
  describeKeyProblem?(key: string): string | undefined;
  /**
   * Endpoint types a channel of this type serves for `model` unless its `endpoints` field says
   * otherwise (admin-api sections 4 and 5).
   */
  endpointTypes(model: string): readonly EndpointType[];
  /**
   * Wire endpoints the upstream serves natively for `model` (the upstream's name) under the
   * channel's `config`, the preferred protocol first.
   */
  upstreamEndpoints(model: string, config: ChannelConfig): readonly UpstreamEndpoint[];
  /** The full upstream URL, or undefined when this upstream does not serve `endpoint`. */
  buildUrl(request: UpstreamUrlRequest): string | undefined;
  /** Lower-case header names: content type, credentials, version headers. */
  buildHeaders(request: UpstreamHeadersRequest): Record<string, string>;
  /**
   * Declared patches the transport needs on a body of `endpoint` (Bedrock and Vertex take an
   * Anthropic body without `model`, with their own `anthropic_version`); absent: sent as it is.
   */
  adaptPayload?(
    payload: UpstreamPayload,
    context: { endpoint: UpstreamEndpoint; stream: boolean },
  ): UpstreamPayload;
  /** Credentials that depend on the final request (AWS SigV4) or on a fetched token (Vertex). */
  authorize?(request: AuthorizeRequest): Promise<Record<string, string>>;
  /**
   * The upstream answered 401 to a call made with `key`: credentials `authorize` cached for it (an
   * access token revoked before its time) are stale, and the next call must fetch them anew.
   */
  forgetCredentials?(request: { key: string; config: ChannelConfig }): void;
  /** How a stream of `endpoint` is framed, when it is not server-sent events. */
  streamFraming?(endpoint: UpstreamEndpoint): (() => StreamFraming) | undefined;
  /**
   * The chat-completions member this upstream carries reasoning in, both ways: replies bring it,
   * and a converted conversation sends the assistant's reasoning back in it. Absent: none (OpenAI).
   */
  reasoningField?: ChatReasoningField;
}
