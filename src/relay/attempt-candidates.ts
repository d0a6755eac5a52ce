import type { Dispatcher } from 'undici';
import type { KeyRotation } from '../providers/key-rotation.js';
import { mapUpstreamModel } from '../providers/map-upstream-model.js';
import { findProvider } from '../providers/registry.js';
import { describeTransportError } from '../providers/describe-transport-error.js';
import { resolveUpstreamTarget } from '../providers/upstream-target.js';
import type { PassthroughCodec, PreparedRequest } from '../protocols/passthrough-codec.js';
import type { ChannelHealth } from '../routing/channel-health.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import { callUpstream, isRetryableStatus, type UpstreamReply } from './call-upstream.js';

export interface AttemptOptions {
  candidates: readonly RoutableChannel[];
  codec: PassthroughCodec;
  model: string;
  body: Record<string, unknown>;
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
      reply: UpstreamReply;
      prepared: PreparedRequest;
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
/** Whether the channel's upstream speaks the codec's protocol itself. */
export function canPassThrough(channel: RoutableChannel, codec: PassthroughCodec): boolean {
  return findProvider(channel.type)?.upstreamEndpoints.includes(codec.upstreamEndpoint) ?? false;
}

export async function attemptCandidates(options: AttemptOptions): Promise<AttemptResult> {
  const usable = options.candidates;
  let last: AttemptResult = { kind: 'unreachable', channel: undefined, detail: 'no channel could be tried' };
  const attempts = Math.min(usable.length, Math.max(1, options.maxAttempts));
  for (let index = 0; index < attempts; index += 1) {
    const channel = usable[index] as RoutableChannel;
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
  const upstreamModel = mapUpstreamModel(channel, options.model);
  const prepared = options.codec.prepareRequest(options.body, { upstreamModel });
  const target = resolveUpstreamTarget({
    provider,
    channel,
    endpoint: options.codec.upstreamEndpoint,
    model: upstreamModel,
    stream: options.stream,
    key,
  });
  if (!target)
    return {
      kind: 'unreachable',
      channel,
      detail: `channel type ${channel.type} does not serve this endpoint`,
    };

  let reply: UpstreamReply;
  try {
    reply = await callUpstream({
      url: target.url,
      headers: target.headers,
      body: JSON.stringify(prepared.body),
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
    return { kind: 'answered', channel, reply, prepared, firstChunk: undefined, iterator: undefined };

  const iterator = (reply.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    const first = await iterator.next();
    return {
      kind: 'answered',
      channel,
      reply,
      prepared,
      firstChunk: first.done ? undefined : first.value,
      iterator,
    };
  } catch (error) {
    return { kind: 'unreachable', channel, detail: describeTransportError(error) };
  }
}
