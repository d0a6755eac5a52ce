import type { Dispatcher } from 'undici';
import { describeTransportError } from '../providers/describe-transport-error.js';
import type { KeyRotation } from '../providers/key-rotation.js';
import { findProvider } from '../providers/registry.js';
import { resolveUpstreamTarget } from '../providers/upstream-target.js';
import type { ChannelHealth } from '../routing/channel-health.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import { callUpstream, isRetryableStatus, type UpstreamReply } from './call-upstream.js';
import type { UpstreamPlan } from './plan.js';

export interface AttemptOptions {
  candidates: readonly RoutableChannel[];
  plan: (channel: RoutableChannel) => Promise<UpstreamPlan | undefined>;
  stream: boolean;
  maxAttempts: number;
  signal: AbortSignal;
  dispatcher: Dispatcher;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  keyRotation: KeyRotation;
  health: ChannelHealth;
}

export type AttemptResult =
  | {
      kind: 'answered';
      channel: RoutableChannel;
      plan: UpstreamPlan;
      reply: UpstreamReply;
      /** For streams: the first body chunk, already read so that failover stays possible until then. */
      firstChunk: Buffer | undefined;
      iterator: AsyncIterator<Buffer> | undefined;
    }
  | { kind: 'upstream-error'; channel: RoutableChannel; reply: UpstreamReply }
  | { kind: 'unreachable'; channel: RoutableChannel | undefined; detail: string };

/**
 * Tries the candidates in order until one answers (admin-api section 4, Routing): a transport
 * failure, 429 or 5xx moves on to the next channel, at most `maxAttempts` in all. A stream counts as
 * answered once its first chunk arrived; nothing is retried after that.
 */
export async function attemptCandidates(options: AttemptOptions): Promise<AttemptResult> {
  let last: AttemptResult = { kind: 'unreachable', channel: undefined, detail: 'no channel could be tried' };
  const attempts = Math.min(options.candidates.length, Math.max(1, options.maxAttempts));
  for (let index = 0; index < attempts; index += 1) {
    const channel = options.candidates[index] as RoutableChannel;
    const isLast = index === attempts - 1;
    const outcome = await attemptOne(channel, options);
    if (outcome.kind === 'answered') {
      options.health.recordSuccess(channel.id);
      return outcome;
    }
    if (options.signal.aborted) return outcome;
    if (outcome.kind === 'unreachable' || outcome.reply.statusCode >= 500)
      void options.health.recordFailure(channel);
    if (outcome.kind === 'upstream-error') {
      if (!isRetryableStatus(outcome.reply.statusCode) || isLast) return outcome;
      await outcome.reply.body.dump().catch(() => undefined);
    }
    last = outcome;
  }
  return last;
}

async function attemptOne(channel: RoutableChannel, options: AttemptOptions): Promise<AttemptResult> {
  const provider = findProvider(channel.type);
  const key = options.keyRotation.next(channel);
  if (!provider || key === undefined) return { kind: 'unreachable', channel, detail: 'channel has no key' };
  const plan = await options.plan(channel);
  const target =
    plan &&
    resolveUpstreamTarget({
      provider,
      channel,
      endpoint: plan.endpoint,
      model: plan.upstreamModel,
      stream: options.stream,
      key,
      extraHeaders: plan.extraHeaders,
    });
  if (!plan || !target) {
    return {
      kind: 'unreachable',
      channel,
      detail: `channel type ${channel.type} does not serve this endpoint`,
    };
  }
  const url = plan.query ? `${target.url}${target.url.includes('?') ? '&' : '?'}${plan.query}` : target.url;

  let reply: UpstreamReply;
  try {
    reply = await callUpstream({
      url,
      headers: target.headers,
      body: JSON.stringify(plan.body),
      signal: options.signal,
      dispatcher: options.dispatcher,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
    });
  } catch (error) {
    return { kind: 'unreachable', channel, detail: describeTransportError(error) };
  }
  if (reply.statusCode >= 400) return { kind: 'upstream-error', channel, reply };
  if (!options.stream)
    return { kind: 'answered', channel, plan, reply, firstChunk: undefined, iterator: undefined };

  const iterator = (reply.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    const first = await iterator.next();
    return {
      kind: 'answered',
      channel,
      plan,
      reply,
      firstChunk: first.done ? undefined : first.value,
      iterator,
    };
  } catch (error) {
    return { kind: 'unreachable', channel, detail: describeTransportError(error) };
  }
}
