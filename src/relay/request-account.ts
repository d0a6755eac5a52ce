import type { Principal } from '../auth/principal.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { BalanceLedger, Reservation } from '../billing/balance-ledger.js';
import { quoteCost } from '../billing/quote.js';
import { resolveBillableUsage } from '../billing/resolve-billable-usage.js';
import type { TokenEstimate } from '../billing/token-estimate.js';
import type { LossLog } from '../ir/loss.js';
import type { Usage } from '../ir/usage.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Logger } from '../observability/logger.js';
import type { PriceRecord } from '../store/prices-repository.js';
import type { NewUsageLog } from '../store/usage-logs-repository.js';
import type { ReplyFacts, RequestObservation, RequestOutcome, StickyResult } from './relay-observer.js';
import type { RelayTracker } from './relay-tracker.js';

export interface AccountingServices {
  ledger: BalanceLedger;
  rateLimiter: RateLimiter;
  principals: PrincipalCache;
  tracker: RelayTracker;
  logger: Logger;
}

export interface RequestFacts {
  requestId: string;
  principal: Principal;
  /** The first target's model and price (see `servedBy`). */
  model: string;
  /** The public model the client named: a virtual model's name, or `model`. */
  requestedModel: string;
  endpoint: string;
  stream: boolean;
  price: PriceRecord;
  groupRatio: number;
  inputTokens: TokenEstimate;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** What conversions dropped or coerced for this request, logged when it ends. */
  losses: LossLog;
  /** Hears how the request ended and when its money moved. */
  observation: RequestObservation;
  /** Called once the request ended, with what the observation hears. */
  onFinished?: ((outcome: RequestOutcome) => void) | undefined;
}

export interface Completion {
  statusCode: number;
  /** A reply was produced (in full or until the client left): it is charged. */
  charged: boolean;
  reported?: Usage | undefined;
  producedText?: () => string;
  /** Calls charged at `per_request`; 1 when absent. */
  calls?: number | undefined;
  error?: string | null;
  /** What the reply said about itself (model, finish reasons), for traces; read only when called. */
  describeReply?: (() => ReplyFacts | undefined) | undefined;
}

/**
 * The money and the usage record of one relayed request. Whatever way the request ends, `finish`
 * runs its reservation to a settlement or a release exactly once, and the usage record is stored in
 * the same transaction as that money move.
 */
export class RequestAccount {
  channelId: number | null = null;
  /** How prompt-cache affinity routed the request, when it has an affinity key. */
  sticky: StickyResult | undefined;
  private firstByteAt: number | undefined;
  private finished = false;
  /** The model that serves the request, and its price: the first target's until another serves. */
  private model: string;
  private price: PriceRecord;

  constructor(
    private readonly services: AccountingServices,
    private readonly facts: RequestFacts,
    private readonly reservation: Reservation,
  ) {
    this.model = facts.model;
    this.price = facts.price;
  }

  /** Another target serves the request (admin-api section 11.3): recorded and billed as that model. */
  servedBy(model: string, price: PriceRecord): void {
    this.model = model;
    this.price = price;
  }

  markFirstByte(): void {
    this.firstByteAt ??= performance.now();
  }

  /** Settles in the background; shutdown waits for it through the tracker. */
  finish(completion: Completion): void {
    if (this.finished) return;
    this.finished = true;
    const { facts } = this;
    const record = this.usageRecord(completion);
    const outcome: RequestOutcome = {
      requestId: facts.requestId,
      endpoint: facts.endpoint,
      model: this.model,
      requestedModel: facts.requestedModel,
      channelId: record.channelId,
      userId: record.userId,
      keyId: record.keyId,
      stream: facts.stream,
      statusCode: record.statusCode,
      charged: completion.charged,
      tokens: completion.charged
        ? {
            input: record.promptTokens,
            cached: record.cachedTokens,
            cacheWrite: record.cacheWriteTokens,
            output: record.completionTokens,
            reasoning: record.reasoningTokens,
          }
        : undefined,
      cost: record.cost,
      latencyMs: record.latencyMs,
      firstByteMs: record.firstByteMs,
      error: record.error,
      describeReply: completion.describeReply,
      sticky: this.sticky,
    };
    facts.observation.finished(outcome);
    facts.onFinished?.(outcome);
    void this.services.tracker.track(this.store(record, outcome)).catch((error: unknown) => {
      const { requestId, principal } = facts;
      this.services.logger.error(
        { err: error, requestId, userId: principal.user.id, keyId: principal.key.id },
        'settlement failed; the hold stays and is returned when this process restarts',
      );
    });
  }

  /** The usage record: usage and cost resolved now, so the request's end is known at once. */
  private usageRecord(completion: Completion): NewUsageLog {
    const { facts, services } = this;
    const latencyMs = Math.round(performance.now() - facts.startedAt);
    const firstByteMs =
      this.firstByteAt === undefined ? null : Math.round(this.firstByteAt - facts.startedAt);
    let usage: Usage | undefined;
    let cost = 0;
    if (completion.charged) {
      const resolved = resolveBillableUsage({
        reported: completion.reported,
        inputTokens: facts.inputTokens,
        producedText: completion.producedText ?? (() => ''),
        calls: completion.calls ?? 1,
      });
      usage = resolved.usage;
      cost = quoteCost(this.price, resolved.billable, facts.groupRatio);
    }
    if (facts.losses.losses.length > 0) {
      services.logger.debug({ requestId: facts.requestId, losses: facts.losses.losses }, 'conversion losses');
    }
    return {
      requestId: facts.requestId,
      createdAt: Math.floor(Date.now() / 1000),
      userId: facts.principal.user.id,
      keyId: facts.principal.key.id,
      channelId: this.channelId,
      model: this.model,
      endpoint: facts.endpoint,
      stream: facts.stream,
      statusCode: completion.statusCode,
      promptTokens: usage?.inputTokens ?? 0,
      completionTokens: usage?.outputTokens ?? 0,
      cachedTokens: usage?.cacheReadTokens ?? 0,
      cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
      reasoningTokens: usage?.reasoningTokens ?? 0,
      cost,
      latencyMs,
      firstByteMs,
      error: completion.error ?? null,
      audioSeconds: usage?.audioSeconds ?? null,
      characters: usage?.characters ?? null,
    };
  }

  private async store(record: NewUsageLog, outcome: RequestOutcome): Promise<void> {
    const { facts, services } = this;
    if (!outcome.charged) {
      await services.ledger.release(this.reservation, record);
      return;
    }
    if (!(await services.ledger.settle(this.reservation, record.cost, record))) return;
    facts.observation.billed(outcome);
    this.reflectInCache(record.cost);
    const { key } = facts.principal;
    if (key.tpm !== null && outcome.tokens) {
      await services.rateLimiter.recordTokens(key.id, outcome.tokens.input + outcome.tokens.output);
    }
  }

  /** A capped key's cached quota follows its charges, so `exhausted` shows without a reload. */
  private reflectInCache(cost: number): void {
    const { key } = this.facts.principal;
    if (key.unlimitedQuota || cost === 0) return;
    this.services.principals.refreshKey(key.keyHash, (entry) => ({
      ...entry,
      key: { ...entry.key, quota: entry.key.quota - cost, usedQuota: entry.key.usedQuota + cost },
    }));
  }
}
