import type { Dispatcher } from 'undici';
import { parsedJsonDocument, readJsonDocument } from '../protocols/json-document.js';
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
import type { ChannelHealth, PairAttempt, PairFailure, PairHold } from '../routing/channel-health.js';
import { classifyFailure, type FailureKind } from '../routing/policy/failure-kind.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import type { Cancellation } from './cancellation.js';
import { callUpstream, isRetryableStatus, MAX_ERROR_BODY_BYTES } from './call-upstream.js';
import type { UpstreamReply } from './upstream-call.js';
import { upstreamHeldError } from './upstream-held-error.js';
import { classifyTransportFailure } from './classify-transport-failure.js';
import { describeAttempt } from './describe-attempt.js';
import { framedStream } from './framed-stream.js';
import { readStreamOpening } from './stream-opening.js';
import type { UpstreamPlan } from './plan.js';
import type { AttemptObservation, RequestObservation } from './relay-observer.js';
import type { UpstreamOutcome } from './upstream-outcome.js';

/** One public model to try, with its channels in the order to try them. */
export interface AttemptTarget {
  model: string;
  candidates: readonly RoutableChannel[];
  plan: (channel: RoutableChannel) => Promise<UpstreamPlan | undefined>;
}

export interface AttemptOptions {
  /** In the order to try (admin-api section 11.3); health is tracked per (channel, model). */
  targets: readonly AttemptTarget[];
  /** The failures that move on to the next target. */
  fallbackOn: ReadonlySet<FailureKind>;
  /** Hears the time from sending each call that answered to its first byte, when latency is learned. */
  onFirstByte?: ((channel: RoutableChannel, model: string, milliseconds: number) => void) | undefined;
  stream: boolean;
  /** Attempts per target that may fail before it is given up; refused keys and unserved channels do not count. */
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

export interface AttemptResult {
  outcome: UpstreamOutcome;
  /** The target whose attempt `outcome` is; undefined when no call was made. */
  target: AttemptTarget | undefined;
}

/**
 * Tries the targets in order, each over its candidates in the order health gives, until one
 * answers (admin-api sections 4, 7 and 11.3). Within a target, a transport failure, a timeout,
 * 429, 5xx, a 200 whose body is not JSON, or a stream's error before its first content moves on to
 * the next candidate, at most `maxAttempts` times; a refused key (401/403) moves on to the
 * channel's next key or the next channel. A target given up on a failure of a kind in
 * `fallbackOn` moves on to the next target; any other failure is the answer. A stream counts as
 * answered once its first content arrived (its first chunk, when nothing could take over);
 * nothing is retried after that. Only real upstream outcomes reach health: a failure of the
 * gateway's own (planning, serialising) is thrown and leaves the pair's health as it was.
 */
export async function attemptCandidates(options: AttemptOptions): Promise<AttemptResult> {
  let last: AttemptResult = { outcome: NOTHING_TRIED, target: undefined };
  let firstHold: PairHold | undefined;
  let called = false;
  const { targets } = options;
  for (let index = 0; index < targets.length; index += 1) {
    const target = targets[index]!;
    const tried = await attemptTarget(target, options, index < targets.length - 1);
    if (tried.kind === 'held') {
      if (tried.hold && (!firstHold || tried.hold.untilMs < firstHold.untilMs)) firstHold = tried.hold;
      continue;
    }
    called = true;
    const { outcome } = tried;
    if (outcome.kind === 'unserved') continue;
    if (last.outcome.kind === 'streaming') last.outcome.body.destroy();
    last = { outcome, target };
    const failure = failureOf(outcome);
    if (failure === undefined || options.cancellation.aborted || !options.fallbackOn.has(failure)) break;
  }
  if (!called && firstHold) throw upstreamHeldError(firstHold);
  return last;
}

const NOTHING_TRIED: UpstreamOutcome = {
  kind: 'unreachable',
  channel: undefined,
  detail: 'no channel could be tried',
};

/** The kind of an attempt's failure; undefined when it is an answer. */
function failureOf(outcome: UpstreamOutcome): FailureKind | undefined {
  switch (outcome.kind) {
    case 'answered':
    case 'unserved':
      return undefined;
    case 'streaming':
      return outcome.opening?.failure;
    case 'upstream-error':
      return outcome.failure;
    case 'timeout':
    case 'unreachable':
      return classifyFailure({ kind: 'transport' });
    default: {
      const unknown: never = outcome;
      return unknown;
    }
  }
}

type TargetAttempt =
  { kind: 'called'; outcome: UpstreamOutcome } | { kind: 'held'; hold: PairHold | undefined };

/** One target's candidates, walked as section 4 says; `held` when none could be called. */
async function attemptTarget(
  target: AttemptTarget,
  options: AttemptOptions,
  moreTargets: boolean,
): Promise<TargetAttempt> {
  let last: UpstreamOutcome | undefined;
  const route = options.health.route(target.candidates, target.model);
  let failures = 0;
  let attempt = route.next();
  if (!attempt) return { kind: 'held', hold: route.held() };
  // A stream is read to its first content only when a failure before it could go elsewhere.
  const mayMoveOn =
    (target.candidates.length > 1 && options.maxAttempts > 1) ||
    (moreTargets && STREAM_FAILURES.some((kind) => options.fallbackOn.has(kind)));
  while (attempt) {
    let outcome: UpstreamOutcome;
    try {
      outcome = await attemptOne(attempt, target, options, mayMoveOn);
    } catch (error) {
      attempt.abandoned();
      throw error;
    }
    report(attempt, outcome, options.cancellation);
    if (options.cancellation.aborted) return { kind: 'called', outcome };
    const refused = outcome.kind === 'upstream-error' && isCredentialRefusal(outcome.reply.statusCode);
    const failure = failureOf(outcome);
    if (!refused && outcome.kind !== 'unserved') {
      if (failure === undefined || !ANOTHER_CHANNEL_MAY_ANSWER.has(failure))
        return { kind: 'called', outcome };
      failures += 1;
    }
    const next = failures < Math.max(1, options.maxAttempts) ? route.next() : undefined;
    if (!next) return { kind: 'called', outcome: outcome.kind === 'unserved' ? (last ?? outcome) : outcome };
    if (outcome.kind === 'streaming') outcome.body.destroy();
    if (outcome.kind !== 'unserved') last = outcome;
    attempt = next;
  }
  return { kind: 'called', outcome: last! };
}

/** What can go wrong in a stream's opening: a broken connection, an error event, a refusal of the input. */
const STREAM_FAILURES: readonly FailureKind[] = [
  'timeout',
  'server_error',
  'context_length',
  'content_filter',
];

/** Failures another channel of the same model may not repeat; a refusal of the input it would. */
const ANOTHER_CHANNEL_MAY_ANSWER: ReadonlySet<FailureKind> = new Set([
  'timeout',
  'rate_limit',
  'server_error',
]);

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
  const failure = failureOf(outcome);
  if (outcome.kind === 'answered' || (outcome.kind === 'streaming' && failure === undefined))
    return attempt.succeeded();
  if (cancellation.aborted || outcome.kind === 'unserved' || failure === undefined)
    return attempt.abandoned();
  if (outcome.kind === 'upstream-error' && isCredentialRefusal(outcome.reply.statusCode))
    return attempt.refused();
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
  outcome: Exclude<UpstreamOutcome, { kind: 'answered' | 'unserved' }>,
  failure: FailureKind,
): PairFailure {
  if (outcome.kind === 'streaming') return { detail: 'the stream failed before its first content' };
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
  target: AttemptTarget,
  options: AttemptOptions,
  readOpening: boolean,
): Promise<UpstreamOutcome> {
  const { channel } = attempt;
  const provider = findProvider(channel.type);
  const plan = provider && (await target.plan(channel));
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
      multipart: plan.multipart,
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
  const outcome = await sendAttempt({ attempt, provider, plan, call, observation, readOpening }, options);
  observation.finished(describeAttempt(outcome, options.cancellation));
  return outcome;
}

interface Sending {
  attempt: PairAttempt<RoutableChannel>;
  provider: ProviderDescriptor;
  plan: UpstreamPlan;
  call: UpstreamCallPlan;
  observation: AttemptObservation;
  /** Read a stream up to its first content before it counts as answered (`readStreamOpening`). */
  readOpening: boolean;
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

  const sentAt = performance.now();
  const firstByte = () => {
    observation.firstByte();
    options.onFirstByte?.(channel, attempt.model, performance.now() - sentAt);
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
    if (!plan.stream) throw new Error(`${plan.endpoint} was planned without a stream transform`);
    try {
      const firstChunk = await reply.body.first();
      firstByte();
      const made = plan.stream();
      const transform = call.framing ? framedStream(made, call.framing()) : made;
      const opening = sending.readOpening
        ? await readStreamOpening(reply.body, transform, firstChunk)
        : undefined;
      return { kind: 'streaming', channel, plan, reply, firstChunk, opening, body: reply.body, transform };
    } catch (error) {
      reply.body.destroy();
      return failed(error);
    }
  }
  // Read whole: an error reply (up to MAX_ERROR_BODY_BYTES), or a reply not streamed.
  const { body } = reply;
  if (statusCode >= 400) {
    const failure = classifyFailure({ kind: 'reply', status: statusCode, body, headers: reply.headers });
    return { kind: 'upstream-error', channel, reply, body: body!, failure };
  }
  firstByte();
  if (!body)
    return {
      kind: 'unreachable',
      channel,
      detail: `the upstream reply is larger than ${options.maxReplyBytes} bytes`,
    };
  // A conversion reads all of the reply; a passthrough only its usage.
  const read = readJsonDocument(body, { maxDepth: MAX_JSON_DEPTH, whole: plan.mode === 'convert' });
  if (!read.ok && plan.repliesInText)
    return { kind: 'answered', channel, plan, reply, body, document: parsedJsonDocument(undefined) };
  if (!read.ok)
    return {
      kind: 'unreachable',
      channel,
      detail: `the upstream answered ${statusCode} with a body that is not JSON (${read.error})`,
    };
  return { kind: 'answered', channel, plan, reply, body, document: read.document };
}
