import type { WebSocket } from 'ws';
import { GatewayError } from '../../errors/gateway-error.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { readUpstreamErrorMessage } from '../../providers/read-upstream-error-message.js';
import { redactKeys } from '../../providers/redact-keys.js';
import { findProvider } from '../../providers/registry.js';
import type { Cancellation } from '../../relay/cancellation.js';
import { readUpstreamError, type UpstreamError } from '../../relay/read-upstream-error.js';
import type { AttemptOutcome, RequestObservation } from '../../relay/relay-observer.js';
import { upstreamHeldError } from '../../relay/upstream-held-error.js';
import type { ChannelHealth, PairAttempt, PairHold } from '../../routing/channel-health.js';
import type { OrderedTarget } from '../../routing/policy/route-order.js';
import type { RoutableChannel } from '../../routing/routing-catalog.js';
import { openUpstreamSocket, type UpstreamSocketOutcome } from './open-upstream-socket.js';

/** An upstream session opened: the socket (paused), who serves it and as which model. */
export interface UpstreamConnection {
  socket: WebSocket;
  channel: RoutableChannel;
  target: OrderedTarget;
  /** The model the upstream was asked for: the channel's mapping of the public one. */
  upstreamModel: string;
}

export type ConnectResult =
  | { kind: 'connected'; connection: UpstreamConnection }
  /** No upstream opened: the client's upgrade is refused with this... */
  | { kind: 'failed'; error: GatewayError }
  /** ...or with the last upstream's own refusal, passed through (client-api section 7). */
  | { kind: 'refused'; upstream: UpstreamError };

export interface ConnectOptions {
  targets: readonly OrderedTarget[];
  health: ChannelHealth;
  /** Failed attempts per target before it is given up; refused keys do not count. */
  maxAttempts: number;
  connectTimeoutSeconds: number;
  maxPayload: number;
  /** The client's headers that travel upstream; never credentials. */
  forwardedHeaders: Readonly<Record<string, string>>;
  cancellation: Cancellation;
  observation: RequestObservation;
}

type Failure = Exclude<UpstreamSocketOutcome, { kind: 'open' }>;

/**
 * Opens the upstream's Realtime WebSocket for a session (admin-api sections 4, 7 and 14): the
 * targets in order, each over its channels in the order health gives, the next one tried when an
 * upgrade fails (a connection error, the timeout, or an HTTP answer instead of the upgrade), each
 * outcome told to health as an HTTP attempt's would be. Nothing reaches the client before one opens.
 */
export async function connectUpstream(options: ConnectOptions): Promise<ConnectResult> {
  let last: { failure: Failure; channel: RoutableChannel } | undefined;
  let firstHold: PairHold | undefined;
  let called = false;
  for (const target of options.targets) {
    const route = options.health.route(target.candidates, target.model);
    let attempt = route.next();
    if (!attempt) {
      const hold = route.held();
      if (hold && (!firstHold || hold.untilMs < firstHold.untilMs)) firstHold = hold;
      continue;
    }
    let failures = 0;
    while (attempt) {
      const outcome = await attemptOne(attempt, target, options);
      if (outcome === undefined) {
        attempt.abandoned();
      } else if (outcome.kind === 'open') {
        attempt.succeeded();
        return {
          kind: 'connected',
          connection: {
            socket: outcome.socket,
            channel: attempt.channel,
            target,
            upstreamModel: mapUpstreamModel(attempt.channel, target.model),
          },
        };
      } else {
        called = true;
        report(attempt, outcome, options.cancellation);
        last = { failure: outcome, channel: attempt.channel };
        if (options.cancellation.aborted) return failedWith(last, options);
        if (!isCredentialRefusal(outcome)) failures += 1;
      }
      attempt = failures < Math.max(1, options.maxAttempts) ? route.next() : undefined;
    }
  }
  if (!called && firstHold) return { kind: 'failed', error: upstreamHeldError(firstHold) };
  return failedWith(last, options);
}

/** One upgrade to one channel with one key; undefined when the channel has no realtime URL. */
async function attemptOne(
  attempt: PairAttempt<RoutableChannel>,
  target: OrderedTarget,
  options: ConnectOptions,
): Promise<UpstreamSocketOutcome | undefined> {
  const { channel, key } = attempt;
  const provider = findProvider(channel.type);
  const origin = channel.baseUrl ?? provider?.defaultBaseUrl(channel.config);
  if (!provider || origin === undefined) return undefined;
  const upstreamModel = mapUpstreamModel(channel, target.model);
  const url = provider.buildUrl({
    origin,
    key,
    config: channel.config,
    endpoint: 'openai-realtime',
    model: upstreamModel,
    stream: true,
  });
  if (url === undefined) return undefined;
  // An upgrade has no body to describe.
  const { 'content-type': _noBody, ...headers } = provider.buildHeaders({
    key,
    config: channel.config,
    extraHeaders: options.forwardedHeaders,
  });
  const observed = options.observation.attemptStarted({
    channelId: channel.id,
    channelType: channel.type,
    upstreamModel,
  });
  const outcome = await openUpstreamSocket({
    url,
    headers: observed.headers ? { ...headers, ...observed.headers } : headers,
    timeoutMs: options.connectTimeoutSeconds * 1000,
    maxPayload: options.maxPayload,
    cancellation: options.cancellation,
  });
  if (outcome.kind === 'open') observed.firstByte();
  observed.finished({
    outcome: attemptOutcome(outcome, options.cancellation),
    statusCode:
      outcome.kind === 'open' ? 101 : outcome.kind === 'refused' ? outcome.reply.statusCode : undefined,
  });
  return outcome;
}

function isCredentialRefusal(failure: Failure): boolean {
  return failure.kind === 'refused' && (failure.reply.statusCode === 401 || failure.reply.statusCode === 403);
}

/** Health hears of an upgrade as of an HTTP call: the key refused, the pair failing, or neither. */
function report(attempt: PairAttempt<RoutableChannel>, failure: Failure, cancellation: Cancellation): void {
  if (cancellation.aborted) return attempt.abandoned();
  if (isCredentialRefusal(failure)) return attempt.refused();
  if (failure.kind === 'timeout') return attempt.failed({ detail: 'connect_timeout_s' });
  if (failure.kind === 'unreachable') return attempt.failed({ detail: failure.detail });
  const { statusCode, headers } = failure.reply;
  if (statusCode === 429) {
    const text = redactKeys(failure.body.toString('utf8'), attempt.channel.keys);
    const message = readUpstreamErrorMessage(text) ?? 'the upstream answered 429 Too Many Requests';
    return attempt.failed({
      retryAfter: headers['retry-after'],
      detail: 'HTTP 429',
      rateLimited: { message },
    });
  }
  if (statusCode >= 500 || statusCode === 408)
    return attempt.failed({ retryAfter: headers['retry-after'], detail: `HTTP ${statusCode}` });
  attempt.abandoned();
}

function attemptOutcome(outcome: UpstreamSocketOutcome, cancellation: Cancellation): AttemptOutcome {
  switch (outcome.kind) {
    case 'open':
      return 'success';
    case 'timeout':
      return 'timeout';
    case 'unreachable':
      return cancellation.aborted ? 'aborted' : 'unreachable';
    case 'refused': {
      const status = outcome.reply.statusCode;
      if (status === 401 || status === 403) return 'refused';
      if (status === 429) return 'rate_limited';
      return status >= 500 ? 'server_error' : 'client_error';
    }
    default: {
      const unknown: never = outcome;
      return unknown;
    }
  }
}

/** The client's answer when no upstream opened: as an HTTP relay would give it. */
function failedWith(
  last: { failure: Failure; channel: RoutableChannel } | undefined,
  options: ConnectOptions,
): ConnectResult {
  if (!last)
    return {
      kind: 'failed',
      error: new GatewayError('upstream_unreachable', { detail: 'no channel could be tried' }),
    };
  const { failure, channel } = last;
  switch (failure.kind) {
    case 'refused':
      return {
        kind: 'refused',
        upstream: readUpstreamError(failure.reply, failure.body, { channelKeys: channel.keys }),
      };
    case 'timeout':
      return {
        kind: 'failed',
        error: new GatewayError('upstream_timeout', {
          seconds: options.connectTimeoutSeconds,
          limit: 'connect_timeout_s',
        }),
      };
    case 'unreachable':
      return {
        kind: 'failed',
        error: new GatewayError('upstream_unreachable', { detail: redactKeys(failure.detail, channel.keys) }),
      };
    default: {
      const unknown: never = failure;
      return unknown;
    }
  }
}
