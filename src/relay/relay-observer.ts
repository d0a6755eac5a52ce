import type { ReplyFacts } from '../ir/reply-facts.js';

export type { ReplyFacts };

/**
 * What the relay tells the outside about each request it carries: metrics, traces. Plain data in
 * plain calls (DESIGN principle 6): the implementations live in `src/observability/`, and the relay
 * never imports a metrics or tracing library. Every call is on the hot path, so implementations
 * keep them cheap; none is made per stream chunk.
 */
export interface RelayObserver {
  /** A request entered the relay. The observation returned follows it to its end. */
  requestStarted(request: ObservedRequest): RequestObservation;
}

export interface ObservedRequest {
  requestId: string;
  /** The relay endpoint's name, as usage logs record it (`chat-completions`). */
  endpoint: string;
  /** The client's headers: a trace context (`traceparent`, `tracestate`) is continued from them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
}

/** One request in the relay. `finished` is called exactly once, whatever way the request ends. */
export interface RequestObservation {
  /** A key's requests-per-minute or tokens-per-minute limit refused the request. */
  rateLimited(limit: 'rpm' | 'tpm'): void;
  /** An upstream call is about to be sent to a channel. */
  attemptStarted(attempt: ObservedAttempt): AttemptObservation;
  /** The client's stream opened; it closes when the request finishes. */
  streamOpened(): void;
  /** The request ended: its answer, and the usage and cost it is charged (the settlement may still be running). */
  finished(outcome: RequestOutcome): void;
  /** The settlement of a charged request landed: the tokens and money in `outcome` were billed. */
  billed(outcome: RequestOutcome): void;
}

export interface ObservedAttempt {
  channelId: number;
  /** The channel's type (`openai`, `anthropic`, `bedrock`, ...). */
  channelType: string;
  /** The model name sent upstream, after the channel's model mapping. */
  upstreamModel: string;
}

/** One upstream call. */
export interface AttemptObservation {
  /** Headers to send with the call (the W3C trace context), or undefined for none. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The upstream's first byte: the response head of a complete reply, the first chunk of a stream. */
  firstByte(): void;
  finished(result: AttemptResult): void;
}

/**
 * How an upstream call ended, as operators count it: `success` (a reply, or a stream's first
 * chunk), `refused` (401/403: the key), `rate_limited` (429), `server_error` (5xx),
 * `client_error` (another 4xx), `timeout`, `unreachable` (transport failure, unreadable reply),
 * `aborted` (the client left or shutdown ended it).
 */
export type AttemptOutcome =
  | 'success'
  | 'refused'
  | 'rate_limited'
  | 'server_error'
  | 'client_error'
  | 'timeout'
  | 'unreachable'
  | 'aborted';

export interface AttemptResult {
  outcome: AttemptOutcome;
  /** The upstream's HTTP status, when it answered. */
  statusCode: number | undefined;
}

/** Tokens as billed, the way usage logs count them. */
export interface BilledTokens {
  /** Every input token, cache reads and writes included. */
  input: number;
  cached: number;
  cacheWrite: number;
  /** Every output token, reasoning included. */
  output: number;
  reasoning: number;
}

export interface RequestOutcome {
  requestId: string;
  endpoint: string;
  /** The public model that served the request, once the request named one the gateway serves. */
  model: string | undefined;
  /** The public model the client named (a virtual model's name, or `model`). */
  requestedModel: string | undefined;
  channelId: number | null;
  userId: number | undefined;
  keyId: number | undefined;
  stream: boolean;
  /** The status the client got (a stream's is 200 even when it ended with an error event). */
  statusCode: number;
  /** A reply was produced and is charged. */
  charged: boolean;
  /** Undefined when nothing was charged. */
  tokens: BilledTokens | undefined;
  /** nano-USD. */
  cost: number;
  latencyMs: number;
  firstByteMs: number | null;
  /** Why the request failed, in the usage log's words; null when it did not. */
  error: string | null;
  /** What the reply said about itself, read only when called (tracing reads it; metrics do not). */
  describeReply: (() => ReplyFacts | undefined) | undefined;
  /**
   * Prompt-cache affinity (admin-api 11.4), for a request with an affinity key that was answered:
   * served by its sticky choice (`hit`), by a first choice (`miss`), or by another (`moved`).
   */
  sticky?: StickyResult | undefined;
}

export type StickyResult = 'hit' | 'miss' | 'moved';

const NO_ATTEMPT: AttemptObservation = {
  headers: undefined,
  firstByte: () => undefined,
  finished: () => undefined,
};

const NO_REQUEST: RequestObservation = {
  rateLimited: () => undefined,
  attemptStarted: () => NO_ATTEMPT,
  streamOpened: () => undefined,
  finished: () => undefined,
  billed: () => undefined,
};

/** Observes nothing, for relays run without telemetry. */
export const unobserved: RelayObserver = { requestStarted: () => NO_REQUEST };
