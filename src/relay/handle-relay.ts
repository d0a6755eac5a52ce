import type { Dispatcher } from 'undici';
import type { Principal } from '../auth/principal.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { BalanceLedger } from '../billing/balance-ledger.js';
import { estimatePromptTokens } from '../billing/estimate-prompt-tokens.js';
import { quotePreCharge } from '../billing/quote.js';
import type { UsageWriter } from '../billing/usage-writer.js';
import type { LiveSettings } from '../config/live-settings.js';
import type { Language } from '../errors/catalogue.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Logger } from '../observability/logger.js';
import type { KeyRotation } from '../providers/key-rotation.js';
import type { ChannelHealth } from '../routing/channel-health.js';
import { orderCandidates } from '../routing/order-candidates.js';
import type { RoutingCatalog } from '../routing/routing-catalog.js';
import { attemptCandidates, canPassThrough } from './attempt-candidates.js';
import { preflight } from './preflight.js';
import { readUpstreamError } from './read-upstream-error.js';
import type { RelayEndpoint } from './relay-endpoint.js';
import { STREAM_HEADERS, type RelayResponse } from './relay-response.js';
import { relayStream } from './relay-stream.js';
import type { RelayTracker } from './relay-tracker.js';
import { RequestAccount } from './request-account.js';

export interface RelayServices {
  catalog: RoutingCatalog;
  settings: LiveSettings;
  ledger: BalanceLedger;
  usageWriter: UsageWriter;
  rateLimiter: RateLimiter;
  health: ChannelHealth;
  keyRotation: KeyRotation;
  dispatcher: () => Dispatcher;
  principals: PrincipalCache;
  tracker: RelayTracker;
  logger: Logger;
}

export interface RelayRequest {
  endpoint: RelayEndpoint;
  principal: Principal;
  requestedModel: unknown;
  body: Record<string, unknown>;
  requestId: string;
  language: Language;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** Aborted when the client goes away; shutdown may abort it too. */
  cancellation: AbortController;
  onModelSelected(): void;
}

/** One relayed request: checks, limits, reservation, upstream attempts, reply, settlement. */
export async function handleRelay(services: RelayServices, request: RelayRequest): Promise<RelayResponse> {
  const { endpoint, principal, body } = request;
  const plan = preflight({ ...request, catalog: services.catalog });
  const codec = endpoint.passthrough;
  const candidates = codec ? plan.candidates.filter((channel) => canPassThrough(channel, codec)) : [];
  if (!codec || candidates.length === 0) {
    throw new GatewayError('no_available_channel', { model: plan.model, group: principal.group });
  }

  const { key } = principal;
  const admission = await services.rateLimiter.admit(key.id, { rpm: key.rpm, tpm: key.tpm });
  if (!admission.allowed) {
    const limit =
      admission.limit === 'rpm' ? `${key.rpm} requests per minute` : `${key.tpm} tokens per minute`;
    throw new GatewayError(
      'rate_limit_exceeded',
      { limit, retryAfter: admission.retryAfterSeconds },
      { headers: { 'retry-after': String(admission.retryAfterSeconds) } },
    );
  }

  const settings = services.settings.get();
  const stream = codec.isStream(body);
  const estimatedInputTokens = estimatePromptTokens(body);
  const reservation = await services.ledger.reserve({
    userId: principal.user.id,
    keyId: key.id,
    keyCapped: !key.unlimitedQuota,
    amount: quotePreCharge({
      price: plan.price,
      estimatedInputTokens,
      outputCap: codec.outputCap(body) ?? settings.default_max_tokens,
      calls: 1,
      groupRatio: plan.groupRatio,
    }),
  });
  const account = new RequestAccount(
    services,
    {
      requestId: request.requestId,
      principal,
      model: plan.model,
      endpoint: endpoint.name,
      stream,
      price: plan.price,
      groupRatio: plan.groupRatio,
      estimatedInputTokens,
      startedAt: request.startedAt,
    },
    reservation,
  );

  const lifetime = services.tracker.begin(request.cancellation);
  let handedOver = false;
  try {
    const result = await attemptCandidates({
      candidates: orderCandidates(candidates),
      codec,
      model: plan.model,
      body,
      stream,
      maxAttempts: settings.retry_times + 1,
      signal: lifetime.signal,
      dispatcher: services.dispatcher(),
      headersTimeoutMs: settings.stream_idle_timeout_s * 1000,
      bodyTimeoutMs: settings.stream_idle_timeout_s * 1000,
      keyRotation: services.keyRotation,
      health: services.health,
    });
    account.channelId = result.channel?.id ?? null;

    if (result.kind === 'unreachable') {
      const error = new GatewayError('upstream_unreachable', { detail: result.detail });
      account.finish({ statusCode: error.status, charged: false, error: result.detail });
      throw error;
    }
    if (result.kind === 'upstream-error') {
      const upstream = await readUpstreamError(result.reply);
      account.markFirstByte();
      account.finish({ statusCode: upstream.status, charged: false, error: upstream.summary });
      return { kind: 'complete', status: upstream.status, headers: upstream.headers, body: upstream.body };
    }

    if (!stream || !result.iterator) {
      const buffer = Buffer.from(await result.reply.body.arrayBuffer());
      account.markFirstByte();
      account.finish({ statusCode: 200, charged: true, reported: codec.usageFromReply(parseJson(buffer)) });
      return {
        kind: 'complete',
        status: 200,
        headers: { 'content-type': headerText(result.reply.headers['content-type']) ?? 'application/json' },
        body: buffer,
      };
    }

    handedOver = true;
    const chunks = relayStream({
      codec,
      tap: codec.createStreamTap({ hideUsageEvents: result.prepared.hideUsageEvents }),
      hideUsageEvents: result.prepared.hideUsageEvents,
      firstChunk: result.firstChunk,
      iterator: result.iterator,
      account,
      signal: lifetime.signal,
      idleTimeoutSeconds: settings.stream_idle_timeout_s,
      language: request.language,
      requestId: request.requestId,
    });
    return {
      kind: 'stream',
      status: 200,
      headers: STREAM_HEADERS,
      chunks: withCleanup(chunks, lifetime.done),
    };
  } catch (error) {
    account.finish({
      statusCode: error instanceof GatewayError ? error.status : 500,
      charged: false,
      error: String(error),
    });
    throw error;
  } finally {
    if (!handedOver) lifetime.done();
  }
}

async function* withCleanup<T>(chunks: AsyncGenerator<T>, cleanup: () => void): AsyncGenerator<T> {
  try {
    yield* chunks;
  } finally {
    cleanup();
  }
}

function parseJson(buffer: Buffer): unknown {
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return undefined;
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
