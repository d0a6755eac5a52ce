import type { Dispatcher } from 'undici';
import { readJsonDocument } from '../protocols/json-document.js';
import { MAX_JSON_DEPTH } from '../protocols/wire-json.js';
import { readUpstreamErrorMessage } from '../providers/read-upstream-error-message.js';
import { redactKeys } from '../providers/redact-keys.js';
import { findProvider } from '../providers/registry.js';
import {
  prepareUpstreamCall,
  UpstreamCredentialError,
  type UpstreamCallPlan,
} from '../providers/prepare-upstream-call.js';
import type { ProviderDescriptor } from '../providers/provider-descriptor.js';
import type { ChannelHealth, PairAttempt, PairFailure } from '../routing/channel-health.js';
import { classifyFailure, type FailureKind } from '../routing/policy/failure-kind.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import type { Cancellation } from './cancellation.js';
import { callUpstream, isRetryableStatus, MAX_ERROR_BODY_BYTES } from './call-upstream.js';
import type { UpstreamReply } from './upstream-call.js';
import { upstreamHeldError } from './upstream-held-error.js';
import { classifyTransportFailure } from './classify-transport-failure.js';
import { describeAttempt } from './describe-attempt.js';
import type { UpstreamPlan } from './plan.js';
import type { AttemptObservation, RequestObservation } from './relay-observer.js';
import type { UpstreamOutcome } from './upstream-outcome.js';

export interface AttemptOptions {
  candidates: readonly RoutableChannel[];
  /** The public model: health is tracked per (channel, model). */
  model: string;
  plan: (channel: RoutableChannel) => Promise<UpstreamPlan | undefined>;
  stream: boolean;
  /** Attempts that may fail before the relay gives up; refused keys and unserved channels do not count. */
  maxAttempts: number;
  cancellation: Cancellation;
  dispatcher: Dispatcher;
  /** Admin-api section 7: a non-streamed reply must be whole within this... */
  upstreamTimeoutSeconds: number;
  /** ...and a stream may be silent this long before its first chunk and between chunks. */
  streamIdleTimeoutSeconds: number;
  connectTimeoutSeconds: number;
  /** A non-streamed reply larger than this is an upstream failure. */
  maxReplyBytes: number;
  health: ChannelHealth;
  /** Hears of each upstream call made. */
  observation: RequestObservation;
}

/**
 * Tries the candidates in the order health gives until one answers (admin-api sections 4 and 7):
 * a transport failure, a timeout, 429, 5xx or a 200 whose body is not JSON moves on to the next
 * candidate, at most `maxAttempts` times; a refused key (401/403) moves on to the channel's next
 * key or the next channel. A stream counts as answered once its first chunk arrived; nothing is
 * retried after that. Only real upstream outcomes reach health: a failure of the gateway's own
 * (planning, serialising) is thrown and leaves the pair's health as it was.
 */
export async function attemptCandidates(options: AttemptOptions): Promise<UpstreamOutcome> {
  let last: UpstreamOutcome = {
    kind: 'unreachable',
    channel: undefined,
    detail: 'no channel could be tried',
  };
  const route = options.health.route(options.candidates, options.model);
  let failures = 0;
  let attempt = route.next();
  const hold = attempt ? undefined : route.held();
  if (hold) throw upstreamHeldError(hold);
  while (attempt) {
    let outcome: UpstreamOutcome;
    try {
      outcome = await attemptOne(attempt, options);
    } catch (error) {
      attempt.abandoned();
      throw error;
    }
    report(attempt, outcome, options.cancellation);
    if (outcome.kind === 'answered' || outcome.kind === 'streaming' || options.cancellation.aborted)
      return outcome;
    const refused = outcome.kind === 'upstream-error' && isCredentialRefusal(outcome.reply.statusCode);
    if (outcome.kind === 'upstream-error' && !refused && !isRetryableStatus(outcome.reply.statusCode))
      return outcome;
    if (!refused && outcome.kind !== 'unserved') failures += 1;
    const next = failures < Math.max(1, options.maxAttempts) ? route.next() : undefined;
    if (!next) return outcome.kind === 'unserved' ? last : outcome;
    if (outcome.kind !== 'unserved') last = outcome;
    attempt = next;
  }
  return last;
}

/** The upstream's own words in its 429, keys redacted, for the gateway to repeat while the pair is held. */
function rateLimitMessage(outcome: { channel: RoutableChannel; body: Buffer }): string {
  const text = redactKeys(outcome.body.toString('utf8'), outcome.channel.keys);
  return readUpstreamErrorMessage(text) ?? 'the upstream answered 429 Too Many Requests';
}

function isCredentialRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * Tells health how the attempt ended, by the failure's kind (`classifyFailure`): a timeout, a
 * rate limit or a server error cools the pair down; a refused key is set aside; a failure another
 * channel would answer no better (context length, content filter, any other) says nothing of it.
 */
function report(attempt: PairAttempt, outcome: UpstreamOutcome, cancellation: Cancellation): void {
  if (outcome.kind === 'answered' || outcome.kind === 'streaming') return attempt.succeeded();
  if (cancellation.aborted || outcome.kind === 'unserved') return attempt.abandoned();
  if (outcome.kind === 'upstream-error' && isCredentialRefusal(outcome.reply.statusCode))
    return attempt.refused();
  const failure =
    outcome.kind === 'upstream-error' ? outcome.failure : classifyFailure({ kind: 'transport' });
  switch (failure) {
    case 'timeout':
    case 'rate_limit':
    case 'server_error':
      return attempt.failed(pairFailure(outcome, failure));
    case 'context_length':
    case 'content_filter':
    case 'other':
      return attempt.abandoned();
    default: {
      const unknown: never = failure;
      return unknown;
    }
  }
}

function pairFailure(
  outcome: Extract<UpstreamOutcome, { kind: 'upstream-error' | 'timeout' | 'unreachable' }>,
  failure: FailureKind,
): PairFailure {
  if (outcome.kind === 'unreachable') return { detail: outcome.detail };
  if (outcome.kind === 'timeout') return { detail: outcome.limit };
  return {
    retryAfter: outcome.reply.headers['retry-after'],
    detail: `HTTP ${outcome.reply.statusCode}`,
    rateLimited: failure === 'rate_limit' ? { message: rateLimitMessage(outcome) } : undefined,
  };
}

async function attemptOne(
  attempt: PairAttempt<RoutableChannel>,
  options: AttemptOptions,
): Promise<UpstreamOutcome> {
  const { channel } = attempt;
  const provider = findProvider(channel.type);
  const plan = provider && (await options.plan(channel));
  if (!plan) return { kind: 'unserved', channel };
  let call: UpstreamCallPlan | undefined;
  try {
    call = await prepareUpstreamCall({
      provider,
      channel,
      endpoint: plan.endpoint,
      model: plan.upstreamModel,
      stream: options.stream,
      key: attempt.key,
      body: plan.body,
      bodyBytes: plan.bodyBytes,
      extraHeaders: plan.extraHeaders,
      query: plan.query,
      cancellation: options.cancellation,
      dispatcher: options.dispatcher,
    });
  } catch (error) {
    // A body the gateway cannot serialise is the gateway's failure; credentials it could not get are the channel's.
    if (!(error instanceof UpstreamCredentialError)) throw error;
    return { kind: 'unreachable', channel, detail: error.message };
  }
  if (!call) return { kind: 'unserved', channel };
  const observation = options.observation.attemptStarted({
    channelId: channel.id,
    channelType: channel.type,
    upstreamModel: plan.upstreamModel,
  });
  const outcome = await sendAttempt({ attempt, provider, plan, call, observation }, options);
  observation.finished(describeAttempt(outcome, options.cancellation));
  return outcome;
}

interface Sending {
  attempt: PairAttempt<RoutableChannel>;
  provider: ProviderDescriptor;
  plan: UpstreamPlan;
  call: UpstreamCallPlan;
  observation: AttemptObservation;
}

/** Sends one prepared call and reads its answer: the reply whole, or a stream's first chunk. */
async function sendAttempt(sending: Sending, options: AttemptOptions): Promise<UpstreamOutcome> {
  const { attempt, provider, plan, call, observation } = sending;
  const { channel } = attempt;
  const timeoutFor = (limit: 'upstream_timeout_s' | 'stream_idle_timeout_s' | 'connect_timeout_s') =>
    limit === 'connect_timeout_s'
      ? options.connectTimeoutSeconds
      : limit === 'stream_idle_timeout_s'
        ? options.streamIdleTimeoutSeconds
        : options.upstreamTimeoutSeconds;
  const failed = (error: unknown): UpstreamOutcome => {
    const failure = classifyTransportFailure(error, { stream: options.stream });
    return failure.kind === 'timeout'
      ? { kind: 'timeout', channel, limit: failure.limit, seconds: timeoutFor(failure.limit) }
      : { kind: 'unreachable', channel, detail: failure.detail };
  };

  let reply: UpstreamReply;
  try {
    reply = await callUpstream({
      url: call.url,
      headers: observation.headers ? { ...call.headers, ...observation.headers } : call.headers,
      body: call.body,
      cancellation: options.cancellation,
      dispatcher: options.dispatcher,
      stream: options.stream,
      waitMs: (options.stream ? options.streamIdleTimeoutSeconds : options.upstreamTimeoutSeconds) * 1000,
      maxBytes: options.maxReplyBytes,
      maxErrorBytes: MAX_ERROR_BODY_BYTES,
    });
  } catch (error) {
    return failed(error);
  }
  const { statusCode } = reply;
  if (statusCode === 401) provider.forgetCredentials?.({ key: attempt.key, config: channel.config });
  if (reply.kind === 'stream') {
    try {
      const firstChunk = await reply.body.first();
      observation.firstByte();
      return { kind: 'streaming', channel, plan, reply, firstChunk, body: reply.body, framing: call.framing };
    } catch (error) {
      return failed(error);
    }
  }
  // Read whole: an error reply (up to MAX_ERROR_BODY_BYTES), or a reply not streamed.
  const { body } = reply;
  if (statusCode >= 400) {
    const failure = classifyFailure({ kind: 'reply', status: statusCode, body, headers: reply.headers });
    return { kind: 'upstream-error', channel, reply, body: body!, failure };
  }
  observation.firstByte();
  if (!body)
    return {
      kind: 'unreachable',
      channel,
      detail: `the upstream reply is larger than ${options.maxReplyBytes} bytes`,
    };
  // A conversion reads all of the reply; a passthrough only its usage.
  const read = readJsonDocument(body, { maxDepth: MAX_JSON_DEPTH, whole: plan.mode === 'convert' });
  if (!read.ok)
    return {
      kind: 'unreachable',
      channel,
      detail: `the upstream answered ${statusCode} with a body that is not JSON (${read.error})`,
    };
  return { kind: 'answered', channel, plan, reply, body, document: read.document };
}
