import type { Dispatcher } from 'undici';
import { rateLimitError } from '../limits/rate-limit-error.js';
import type { Principal } from '../auth/principal.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { BalanceLedger, Reservation } from '../billing/balance-ledger.js';
import { quotePreCharge } from '../billing/quote.js';
import type { TokenEstimate } from '../billing/token-estimate.js';
import type { LiveSettings } from '../config/live-settings.js';
import type { Settings } from '../config/settings-schema.js';
import type { Language } from '../errors/catalogue.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { RateDecision, RateLimiter } from '../limits/rate-limiter.js';
import type { Logger } from '../observability/logger.js';
import type { KeyRotation } from '../providers/key-rotation.js';
import type { ChannelHealth, PairHold } from '../routing/channel-health.js';
import type { RoutingMemory } from '../routing/policy/routing-memory.js';
import { routeRequest } from './request-routing.js';
import type { GuardrailChecker } from '../guardrails/guardrail-checker.js';
import { redactRequestTexts } from '../guardrails/redact-request-texts.js';
import type { UpstreamOutcome } from './upstream-outcome.js';
import type { RoutableChannel, RoutingCatalog } from '../routing/routing-catalog.js';
import type { PriceRecord } from '../store/prices-repository.js';
import { attemptCandidates } from './attempt-candidates.js';
import type { Cancellation } from './cancellation.js';
import { fittingTargets } from '../routing/policy/fitting-targets.js';
import { withoutMember } from '../protocols/without-member.js';
import { preflight, type RelayPlan } from './preflight.js';
import type { RouteTarget } from '../routing/policy/route-target.js';
import { readUpstreamError } from './read-upstream-error.js';
import { redactKeys } from '../providers/redact-keys.js';
import { LossLog } from '../ir/loss.js';
import type { RelayEndpoint } from './relay-endpoint.js';
import { SERVED_MODEL_HEADER, STREAM_HEADERS, type RelayResponse } from './relay-response.js';
import { relayStream } from './relay-stream.js';
import type { RequestObservation, RelayObserver, RequestOutcome } from './relay-observer.js';
import type { RelayOperation } from './relay-operation.js';
import type { RelayTracker } from './relay-tracker.js';
import { RequestAccount } from './request-account.js';
import { upstreamHeldError } from './upstream-held-error.js';
import { limitedScopesOf } from './limited-scopes.js';
import { requestWindows } from '../billing/budgets/request-windows.js';
import type { BodyCapture } from './body-capture.js';

export interface RelayServices {
  catalog: RoutingCatalog;
  settings: LiveSettings;
  ledger: BalanceLedger;
  rateLimiter: RateLimiter;
  health: ChannelHealth;
  /** What routing learns from traffic: latency, sticky choices (admin-api 11.4, 11.5). */
  routing: RoutingMemory;
  /** Checks of the request's text before anything is charged (admin-api section 12). */
  guardrails: GuardrailChecker;
  keyRotation: KeyRotation;
  dispatcher: () => Dispatcher;
  principals: PrincipalCache;
  tracker: RelayTracker;
  logger: Logger;
  /** Metrics and traces of each request. */
  observer: RelayObserver;
}

export interface RelayRequest {
  endpoint: RelayEndpoint;
  principal: Principal;
  requestedModel: unknown;
  body: Record<string, unknown>;
  /** The body as the client sent it: forwarded as it is when a passthrough changes nothing in it. */
  bodyBytes: Buffer;
  requestId: string;
  language: Language;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** Aborted when the client goes away; shutdown may abort it too. */
  cancellation: Cancellation;
  headers: Record<string, string | string[] | undefined>;
  /** The query string without `?` (`alt=sse` aside, it travels to same-protocol upstreams). */
  query: string;
  onModelSelected(): void;
  /** The capture of the request's bodies, when its key stores them: told when a usage record is written. */
  bodies?: Pick<BodyCapture, 'recorded'> | undefined;
  /** Called once the request ended (for a stream: once it closed), with how it ended. */
  onFinished?(outcome: RequestOutcome): void;
}

/** One relayed request: checks, limits, reservation, upstream attempts, reply, settlement. */
export async function handleRelay(services: RelayServices, request: RelayRequest): Promise<RelayResponse> {
  const { endpoint, principal, body } = request;
  const observation = services.observer.requestStarted({
    requestId: request.requestId,
    endpoint: endpoint.name,
    headers: request.headers,
    startedAt: request.startedAt,
  });
  const { plan, operation, targets, settings, stream, inputTokens, losses, reservation } = await admit(
    services,
    request,
    observation,
  );
  // From here every way the request ends leaves a usage record.
  request.bodies?.recorded();
  const first = targets[0]!;
  const account = new RequestAccount(
    services,
    {
      requestId: request.requestId,
      principal,
      model: first.model,
      requestedModel: plan.namedModel,
      endpoint: endpoint.name,
      stream,
      price: first.price,
      groupRatio: plan.groupRatio,
      inputTokens,
      startedAt: request.startedAt,
      losses,
      observation,
      onFinished: request.onFinished,
    },
    reservation,
  );

  const { cancellation } = request;
  const untrack = services.tracker.begin(cancellation);
  let handedOver = false;
  try {
    const sent = redactedForUpstream(
      withoutFallbackModels(endpoint, body, request.bodyBytes),
      endpoint,
      settings,
      losses,
    );
    const planFor = ({ model, price }: RouteTarget) =>
      operation.createPlanner({
        body: sent.body,
        bodyBytes: sent.bodyBytes,
        model,
        price,
        requestedModel: plan.requestedModel,
        effort: plan.effort,
        stream,
        clientWantsUsage: operation.wantsUsageEvents(body),
        inputTokens,
        defaultMaxTokens: settings.default_max_tokens,
        forwardedHeaders: pickHeaders(request.headers, operation.forwardedHeaders),
        query: request.query,
        files: {
          allowPrivate: settings.image_fetch_allow_private,
          maxBytes: MAX_LINKED_FILE_BYTES,
          timeoutMs: LINKED_FILE_TIMEOUT_MS,
        },
        cancellation,
        losses,
      });
    const routing = await routeRequest(services.routing, {
      request: { protocol: endpoint.protocol, body, headers: request.headers, keyId: principal.key.id },
      plan,
      targets,
      settings,
    });
    const { outcome: result, target: served } = await attemptCandidates({
      targets: routing.targets.map((target) => ({
        model: target.model,
        candidates: target.candidates,
        plan: planFor(target),
      })),
      fallbackOn: plan.fallbackOn,
      onFirstByte: routing.onFirstByte,
      stream,
      maxAttempts: settings.retry_times + 1,
      cancellation,
      dispatcher: services.dispatcher(),
      upstreamTimeoutSeconds: settings.upstream_timeout_s,
      streamIdleTimeoutSeconds: settings.stream_idle_timeout_s,
      connectTimeoutSeconds: settings.connect_timeout_s,
      maxReplyBytes: MAX_UPSTREAM_REPLY_BYTES,
      health: services.health,
      observation,
    });
    account.channelId = result.channel?.id ?? null;
    const servedTarget = targets.find((target) => target.model === served?.model) ?? first;
    account.servedBy(servedTarget.model, servedTarget.price);
    const servedModel = servedTarget.model;
    if (result.channel && isAnswer(result)) account.sticky = routing.answered(result.channel, servedModel);

    if (cancellation.aborted) throw endedFromOurSide(cancellation);
    switch (result.kind) {
      case 'unserved':
      case 'unreachable': {
        const detail = result.kind === 'unreachable' ? result.detail : 'no channel serves this endpoint';
        const error = new GatewayError('upstream_unreachable', {
          detail: redactKeys(detail, result.channel?.keys ?? []),
        });
        account.finish({ statusCode: error.status, charged: false, error: error.message });
        throw error;
      }
      case 'timeout': {
        const error = new GatewayError('upstream_timeout', { seconds: result.seconds, limit: result.limit });
        account.finish({ statusCode: error.status, charged: false, error: error.message });
        throw error;
      }
      case 'upstream-error': {
        const upstream = readUpstreamError(result.reply, result.body, { channelKeys: result.channel.keys });
        account.markFirstByte();
        account.finish({ statusCode: upstream.status, charged: false, error: upstream.summary });
        return {
          kind: 'complete',
          status: upstream.status,
          headers: { ...upstream.headers, [SERVED_MODEL_HEADER]: servedModel },
          body: upstream.body,
        };
      }
      case 'answered': {
        account.markFirstByte();
        const converted = result.plan.reply()(result.body, result.document);
        account.finish({
          statusCode: 200,
          charged: true,
          reported: converted.usage,
          producedText: converted.producedText,
          calls: converted.calls,
          describeReply: converted.facts,
        });
        const contentType =
          result.plan.mode === 'passthrough' ? headerText(result.reply.headers['content-type']) : undefined;
        return {
          kind: 'complete',
          status: 200,
          headers: { 'content-type': contentType ?? 'application/json', [SERVED_MODEL_HEADER]: servedModel },
          body: converted.body,
        };
      }
      case 'streaming':
        break;
      default: {
        const unreachable: never = result;
        return unreachable;
      }
    }

    handedOver = true;
    observation.streamOpened();
    const relay = relayStream({
      transform: result.transform,
      firstChunk: result.firstChunk,
      opening: result.opening,
      body: result.body,
      account,
      cancellation,
      idleTimeoutSeconds: settings.stream_idle_timeout_s,
      language: request.language,
      requestId: request.requestId,
      onClosed: untrack,
    });
    const contentType = result.plan.streamContentType?.(headerText(result.reply.headers['content-type']));
    return {
      kind: 'stream',
      status: 200,
      headers: {
        ...STREAM_HEADERS,
        ...(contentType && { 'content-type': contentType }),
        [SERVED_MODEL_HEADER]: servedModel,
      },
      relay,
    };
  } catch (caught) {
    // A client that left, or shutdown, may interrupt planning (a linked-file download) as well.
    const error =
      cancellation.aborted && !(caught instanceof GatewayError) ? endedFromOurSide(cancellation) : caught;
    account.finish({
      statusCode: error instanceof GatewayError ? error.status : 500,
      charged: false,
      error: error instanceof GatewayError ? error.message : String(error),
    });
    throw error;
  } finally {
    if (!handedOver) untrack();
  }
}

interface Admission {
  plan: RelayPlan;
  operation: RelayOperation;
  /** The plan's targets the operation and the request can use, each at its billing price. */
  targets: readonly RouteTarget[];
  settings: Readonly<Settings>;
  stream: boolean;
  inputTokens: TokenEstimate;
  losses: LossLog;
  reservation: Reservation;
}

/**
 * Every check before the upstream, the key's rate limits, and the reservation. A refusal ends the
 * request here: the observation hears it before it is thrown.
 */
async function admit(
  services: RelayServices,
  request: RelayRequest,
  observation: RequestObservation,
): Promise<Admission> {
  const { endpoint, principal, body } = request;
  let plan: RelayPlan | undefined;
  try {
    plan = preflight(request, services.catalog);
    const { operation } = endpoint;
    const selected = operation ? selectedTargets(operation, plan.targets) : [];
    if (!operation || selected.length === 0) {
      if (endpoint.refusalPath)
        throw new GatewayError('endpoint_not_supported', { path: endpoint.refusalPath });
      throw new GatewayError('no_available_channel', { model: plan.namedModel, group: principal.group });
    }

    // Before the key's own limits: a request the upstream would not take now uses none of them.
    const hold = heldEverywhere(services.health, selected);
    if (hold) throw upstreamHeldError(hold);

    const { key } = principal;
    const limited = key.rpm !== null || key.tpm !== null;
    const admission = limited
      ? await services.rateLimiter.admit(key.id, { rpm: key.rpm, tpm: key.tpm })
      : ADMITTED;
    if (!admission.allowed) {
      observation.rateLimited(admission.limit);
      throw rateLimitError(key, admission);
    }

    const stream = endpoint.stream ?? operation.isStream(body);
    const guardrails = endpoint.protocol ? services.guardrails.applicable(principal.group) : [];
    if (guardrails.length > 0)
      await services.guardrails.check(guardrails, {
        requestId: request.requestId,
        protocol: endpoint.protocol!,
        body,
        group: principal.group,
        model: plan.targets[0]!.model,
        requestedModel: plan.namedModel,
        endpoint: endpoint.name,
        stream,
        userId: principal.user.id,
        keyId: key.id,
        startedAt: request.startedAt,
      });

    const settings = services.settings.get();
    const { inputTokens, outputCap, calls, inputAudioTokens, characters, audioSeconds } = operation.preCharge(
      body,
      settings,
    );
    const limitedScopes = limitedScopesOf(principal, services.catalog);
    const fitting = fittingTargets(selected, {
      catalog: services.catalog,
      protocol: endpoint.protocol,
      body,
      inputTokens,
      outputCap,
      limitedScopes,
    });
    if (fitting.length === 0)
      throw new GatewayError('no_available_channel', { model: plan.namedModel, group: principal.group });
    const targets = fitting.map((target) => ({
      ...target,
      price: operation.billingPrice(target.price, settings),
    }));
    if (operation.checkPrice)
      for (const target of targets) operation.checkPrice(body, target.price, target.model);
    const { groupRatio } = plan;
    const { model } = targets[0]!;
    const nowMs = Date.now();
    const events = settings.webhook_url !== null;
    const charge = (estimatedInputTokens: number) => ({
      amount: highestPreCharge(targets, {
        estimatedInputTokens,
        outputCap,
        calls,
        inputAudioTokens,
        characters,
        audioSeconds,
        groupRatio,
      }),
      budget:
        limitedScopes.length === 0
          ? undefined
          : requestWindows(limitedScopes, {
              model,
              tokens: estimatedInputTokens + outputCap,
              nowMs,
              timeZone: settings.budget_time_zone,
              events,
            }),
    });
    const bound = charge(inputTokens.atMost);
    const reservation = await services.ledger.reserve(
      {
        requestId: request.requestId,
        model,
        requestedModel: plan.requestedModel === model ? undefined : plan.requestedModel,
        endpoint: endpoint.name,
        stream,
        userId: principal.user.id,
        keyId: key.id,
        keyCapped: !key.unlimitedQuota,
        amount: bound.amount,
        budget: bound.budget,
        lowBalanceAlert: events ? (principal.user.lowBalanceAlert ?? undefined) : undefined,
      },
      // Refused on the bound: the decision, and the amount the error names, are the tokenizer's.
      () => charge(inputTokens.count()),
    );
    return {
      plan,
      operation,
      targets,
      settings,
      stream,
      inputTokens,
      losses: new LossLog(),
      reservation,
    };
  } catch (error) {
    if (error instanceof GatewayError && error.errorName === 'guardrail_blocked') request.bodies?.recorded();
    const outcome = refusedOutcome(request, plan, error);
    observation.finished(outcome);
    request.onFinished?.(outcome);
    throw error;
  }
}

/** Each target with the candidates that can take the operation; targets left with none are dropped. */
function selectedTargets(operation: RelayOperation, targets: readonly RouteTarget[]): RouteTarget[] {
  const selected: RouteTarget[] = [];
  for (const target of targets) {
    const candidates = operation.select(target.candidates, target.model);
    if (candidates.length > 0)
      selected.push(candidates === target.candidates ? target : { ...target, candidates });
  }
  return selected;
}

/** The hold ending first when every target's every candidate is held; undefined when one is not. */
function heldEverywhere(health: ChannelHealth, targets: readonly RouteTarget[]): PairHold | undefined {
  let first: PairHold | undefined;
  for (const target of targets) {
    const hold = health.held(target.candidates, target.model);
    if (!hold) return undefined;
    if (!first || hold.untilMs < first.untilMs) first = hold;
  }
  return first;
}

/**
 * The pre-charge covers whichever target serves: the highest of theirs (one target: its own), so
 * a fallback to a dearer model cannot overdraw the balance.
 */
function highestPreCharge(
  targets: readonly RouteTarget[],
  request: Omit<Parameters<typeof quotePreCharge>[0], 'price'>,
): number {
  let highest = quotePreCharge({ price: targets[0]!.price, ...request });
  for (let index = 1; index < targets.length; index += 1)
    highest = Math.max(highest, quotePreCharge({ price: targets[index]!.price, ...request }));
  return highest;
}

/** A request refused before anything was reserved: nothing is charged. */
function refusedOutcome(request: RelayRequest, plan: RelayPlan | undefined, error: unknown): RequestOutcome {
  const { endpoint, principal } = request;
  return {
    requestId: request.requestId,
    endpoint: endpoint.name,
    model: plan?.targets[0]?.model,
    requestedModel: plan?.namedModel,
    channelId: null,
    userId: principal.user.id,
    keyId: principal.key.id,
    stream: endpoint.stream ?? endpoint.operation?.isStream(request.body) ?? false,
    statusCode: error instanceof GatewayError ? error.status : 500,
    charged: false,
    tokens: undefined,
    cost: 0,
    latencyMs: Math.round(performance.now() - request.startedAt),
    firstByteMs: null,
    error: error instanceof GatewayError ? error.message : String(error),
    describeReply: undefined,
  };
}

/**
 * The body as it goes upstream: without the gateway's own `models` (admin-api section 11.3), and
 * its bytes without that member alone, so a passthrough still sends the client's bytes.
 */
function withoutFallbackModels(
  endpoint: RelayEndpoint,
  body: Record<string, unknown>,
  bodyBytes: Buffer,
): { body: Record<string, unknown>; bodyBytes: Buffer } {
  if (!endpoint.takesFallbackModels || body.models === undefined) return { body, bodyBytes };
  const { models: _fallbacks, ...rest } = body;
  return { body: rest, bodyBytes: withoutMember(bodyBytes, 'models') };
}

/** An attempt that answered: a reply, or a stream whose opening did not fail. */
function isAnswer(outcome: UpstreamOutcome): boolean {
  return (
    outcome.kind === 'answered' || (outcome.kind === 'streaming' && outcome.opening?.failure === undefined)
  );
}

/**
 * With `redact_pii: upstream` (admin-api section 12), the body as it goes upstream has personal
 * data cut from its texts; each rewritten text is recorded as a coerced member.
 */
function redactedForUpstream(
  sent: { body: Record<string, unknown>; bodyBytes: Buffer },
  endpoint: RelayEndpoint,
  settings: Readonly<Settings>,
  losses: LossLog,
): { body: Record<string, unknown>; bodyBytes: Buffer } {
  if (settings.redact_pii !== 'upstream' || endpoint.protocol === undefined) return sent;
  const redacted = redactRequestTexts(endpoint.protocol, sent.body);
  for (const path of redacted.paths) losses.coerced(path, 'personal data redacted (redact_pii: upstream)');
  if (redacted.body === sent.body) return sent;
  // A passthrough sends these bytes as they are: they must be the redacted body's.
  return { body: redacted.body, bodyBytes: Buffer.from(JSON.stringify(redacted.body)) };
}

/** A key without rate limits is not counted. */
const ADMITTED: RateDecision = { allowed: true };

const MAX_LINKED_FILE_BYTES = 20 * 1024 * 1024;
/** A non-streamed upstream reply is read whole; past this size it is an upstream failure. */
const MAX_UPSTREAM_REPLY_BYTES = 128 * 1024 * 1024;

/** The request was ended from the gateway's side: its client left, or shutdown cut it. */
function endedFromOurSide(cancellation: Cancellation): GatewayError {
  const reason: unknown = cancellation.reason;
  return new GatewayError('upstream_unreachable', {
    detail: reason instanceof Error ? reason.message : 'client closed the connection',
  });
}
const LINKED_FILE_TIMEOUT_MS = 15_000;

function pickHeaders(headers: Record<string, string | string[] | undefined>, names: readonly string[]) {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return picked;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
