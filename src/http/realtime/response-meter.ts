import type { Principal } from '../../auth/principal.js';
import type { LimitedScope } from '../../billing/budgets/request-windows.js';
import { exactTokens } from '../../billing/token-estimate.js';
import type { LiveSettings } from '../../config/live-settings.js';
import { LossLog } from '../../ir/loss.js';
import type { Usage } from '../../ir/usage.js';
import type { RelayObserver } from '../../relay/relay-observer.js';
import { RequestAccount, type AccountingServices } from '../../relay/request-account.js';
import type { PriceRecord } from '../../store/prices-repository.js';
import { redactKeys } from '../../providers/redact-keys.js';
import { convertRealtimeUsage } from './convert-realtime-usage.js';
import { observeCharges } from './observe-charges.js';
import { outputCapOf, quoteResponsePreCharge } from './response-pre-charge.js';
import { sessionWindows } from './session-windows.js';

export interface MeterServices extends AccountingServices {
  observer: RelayObserver;
  settings: LiveSettings;
}

/** What every response of one session is billed as. */
export interface MeteredSession {
  /** The session's request id; a response's is this plus `-<n>`, n counting from 1. */
  requestId: string;
  principal: Principal;
  /** The public model serving the session, and its price. */
  model: string;
  /** The model the client named (a virtual model's name, or `model`). */
  requestedModel: string;
  price: PriceRecord;
  groupRatio: number;
  channelId: number;
  /** Redacted from the upstream's words before they reach a usage record. */
  channelKeys: readonly string[];
  scopes: readonly LimitedScope[];
}

/** A response reserved for the client, not yet sent upstream. */
export interface AskedResponse {
  forwarded(): void;
  /** Not sent after all: its reservation is released. */
  withdrawn(end: { statusCode: number; error: string }): void;
}

/** One response, from its reservation to its `response.done`. */
interface MeteredResponse {
  /** Opened by the client's `response.create`; otherwise the upstream started it (server VAD). */
  byClient: boolean;
  responseId: string | undefined;
  clientEventId: string | undefined;
  /** Undefined when its reservation failed (the session is ended for it). */
  account: Promise<RequestAccount | undefined>;
}

/**
 * The money of a realtime session's responses (admin-api section 14), one hold each: reserved
 * when the response starts (the client's `response.create`, or the upstream's `response.created`
 * of a response it started itself), settled on its own `response.done` with the usage that reports,
 * each with one usage record. A response that never gets its `response.done` (the session ended
 * first) is released; one cut by a killed process is returned by the hold recovery.
 */
export class ResponseMeter {
  private counter = 0;
  /** Responses without their `response.done` yet, oldest first. */
  private readonly open: MeteredResponse[] = [];
  /** The last response's usage: the next one reads the conversation it read, and more. */
  private previous: Usage | undefined;
  /** The session's own output cap, from its `session.update`s. */
  private sessionConfig: Record<string, unknown> | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly services: MeterServices,
    private readonly session: MeteredSession,
    private readonly events: {
      /** A response's charge landed: the session checks whether it has room left. */
      onCharged(): void;
      /** A response the upstream started could not be reserved: the session cannot go on. */
      onRefused(error: unknown): void;
    },
  ) {}

  get inProgress(): number {
    return this.open.length;
  }

  /** The ids of the responses running, for `response.cancel`; undefined for one not created yet. */
  runningIds(): (string | undefined)[] {
    return this.open.map((response) => response.responseId);
  }

  /** Resolves once no response is in progress. */
  whenIdle(): Promise<void> {
    if (this.open.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** What the session's next response would reserve (nano-USD), named when a quota has no room. */
  nextPreCharge(): number {
    const { session } = this;
    return quoteResponsePreCharge({
      price: session.price,
      previous: this.previous,
      outputCap: outputCapOf(this.sessionConfig) ?? this.services.settings.get().default_max_tokens,
      groupRatio: session.groupRatio,
    });
  }

  /** A `session.update`: its output cap applies to the responses that follow. */
  configure(session: Record<string, unknown>): void {
    if ('max_output_tokens' in session || 'max_response_output_tokens' in session)
      this.sessionConfig = session;
  }

  /**
   * Reserves a response the client asks for, before its `response.create` is forwarded; throws the
   * refusal (balance, key quota or a budget window without room for its pre-charge). The caller
   * then forwards it, or withdraws it when the session ended meanwhile.
   */
  async reserveForClient(request: {
    clientEventId: string | undefined;
    response: Record<string, unknown> | undefined;
  }): Promise<AskedResponse> {
    const account = await this.reserve(outputCapOf(request.response, this.sessionConfig), false);
    return {
      forwarded: () =>
        void this.open.push({
          byClient: true,
          responseId: undefined,
          clientEventId: request.clientEventId,
          account: Promise.resolve(account),
        }),
      withdrawn: (end) => account.finish({ ...end, charged: false }),
    };
  }

  /** `response.created`: the oldest response asked for gets its id; any other the upstream started. */
  created(responseId: string): void {
    if (this.open.some((response) => response.responseId === responseId)) return;
    const asked = this.open.find((response) => response.byClient && response.responseId === undefined);
    if (asked) {
      asked.responseId = responseId;
      void asked.account.then((account) => account?.markFirstByte());
      return;
    }
    this.open.push(this.startedUpstream(responseId));
  }

  /** `response.done`: its response is charged on the usage it reports, at once. */
  done(response: Record<string, unknown>): void {
    const id = typeof response.id === 'string' ? response.id : undefined;
    const index = this.open.findIndex((open) => open.responseId === id);
    const fallback = this.open.findIndex((open) => open.responseId === undefined);
    const found = index >= 0 ? index : fallback;
    const metered = found >= 0 ? this.open.splice(found, 1)[0]! : this.startedUpstream(id);
    const usage = convertRealtimeUsage(response.usage);
    if (usage) this.previous = usage;
    void metered.account.then((account) =>
      account?.finish({
        statusCode: 200,
        charged: true,
        reported: usage,
        producedText: () => producedText(response.output),
        error: failureOf(response, this.session.channelKeys),
      }),
    );
    this.wakeIfIdle();
  }

  /**
   * An `error` event: when it answers a `response.create` (named by the event's `event_id`, or the
   * API's refusal of a second response while one is active), that response will not run and its
   * reservation is released.
   */
  refused(error: Record<string, unknown>): void {
    const byEvent =
      typeof error.event_id === 'string'
        ? this.open.findIndex(
            (open) => open.clientEventId === error.event_id && open.responseId === undefined,
          )
        : -1;
    const index =
      byEvent >= 0
        ? byEvent
        : error.code === 'conversation_already_has_active_response'
          ? this.open.findLastIndex((open) => open.byClient && open.responseId === undefined)
          : -1;
    if (index < 0) return;
    const [metered] = this.open.splice(index, 1);
    const message = typeof error.message === 'string' ? error.message : 'refused by the upstream';
    const recorded = `upstream error: ${redactKeys(message, this.session.channelKeys)}`;
    void metered!.account.then((account) =>
      account?.finish({ statusCode: 400, charged: false, error: recorded }),
    );
    this.wakeIfIdle();
  }

  /** The session ended: responses without their `response.done` are released, charging nothing. */
  endAll(end: { statusCode: number; error: string }): void {
    for (const metered of this.open.splice(0))
      void metered.account.then((account) => account?.finish({ ...end, charged: false }));
    this.wakeIfIdle();
  }

  private wakeIfIdle(): void {
    if (this.open.length > 0) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /**
   * A response the upstream started itself (server VAD, or one whose creation was not seen): it
   * runs already, so when its full pre-charge does not fit, a hold of nothing (which still needs a
   * positive balance and room in the budgets) takes its place; its `response.done` is charged all
   * the same. Only when even that is refused does the session end.
   */
  private startedUpstream(responseId: string | undefined): MeteredResponse {
    const account = this.reserve(outputCapOf(this.sessionConfig), true).then(
      (reserved) => {
        reserved.markFirstByte();
        return reserved;
      },
      (error: unknown) => {
        this.events.onRefused(error);
        return undefined;
      },
    );
    return { byClient: false, responseId, clientEventId: undefined, account };
  }

  private async reserve(outputCap: number | undefined, startedUpstream: boolean): Promise<RequestAccount> {
    const { services, session } = this;
    const { principal } = session;
    const settings = services.settings.get();
    const cap = outputCap ?? settings.default_max_tokens;
    const requestId = `${session.requestId}-${(this.counter += 1)}`;
    const startedAt = performance.now();
    const events = settings.webhook_url !== null;
    const inputTokens = this.previous?.inputTokens ?? 0;
    const { budgets } = sessionWindows(session.scopes, {
      model: session.model,
      tokens: inputTokens + cap,
      nowMs: Date.now(),
      timeZone: settings.budget_time_zone,
      events,
    });
    const reservation = await services.ledger.reserve(
      {
        requestId,
        model: session.model,
        requestedModel: session.requestedModel === session.model ? undefined : session.requestedModel,
        endpoint: REALTIME_ENDPOINT,
        stream: true,
        userId: principal.user.id,
        keyId: principal.key.id,
        keyCapped: !principal.key.unlimitedQuota,
        amount: quoteResponsePreCharge({
          price: session.price,
          previous: this.previous,
          outputCap: cap,
          groupRatio: session.groupRatio,
        }),
        budget: budgets,
        lowBalanceAlert: events ? (principal.user.lowBalanceAlert ?? undefined) : undefined,
      },
      startedUpstream ? () => ({ amount: 0, budget: budgets && { ...budgets, tokens: 0 } }) : undefined,
    );
    const observation = services.observer.requestStarted({
      requestId,
      endpoint: REALTIME_ENDPOINT,
      headers: NO_HEADERS,
      startedAt,
    });
    const account = new RequestAccount(
      services,
      {
        requestId,
        principal,
        model: session.model,
        requestedModel: session.requestedModel,
        endpoint: REALTIME_ENDPOINT,
        stream: true,
        price: session.price,
        groupRatio: session.groupRatio,
        inputTokens: exactTokens(inputTokens),
        startedAt,
        losses: new LossLog(),
        observation: observeCharges(observation, () => this.events.onCharged()),
      },
      reservation,
    );
    account.channelId = session.channelId;
    return account;
  }
}

/** Usage records name the endpoint this way (admin-api section 2, usage logs). */
export const REALTIME_ENDPOINT = 'realtime';
const NO_HEADERS: Readonly<Record<string, string>> = {};

/** The text and transcripts of a response's output: what is counted when it reports no usage. */
function producedText(output: unknown): string {
  if (!Array.isArray(output)) return '';
  const texts: string[] = [];
  for (const item of output) {
    const content = (item as { content?: unknown })?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const { text, transcript } = (part ?? {}) as { text?: unknown; transcript?: unknown };
      if (typeof text === 'string') texts.push(text);
      if (typeof transcript === 'string') texts.push(transcript);
    }
  }
  return texts.join('');
}

/** A failed response's reason, for its usage record; null for one that completed, or was cut short. */
function failureOf(response: Record<string, unknown>, channelKeys: readonly string[]): string | null {
  if (response.status !== 'failed') return null;
  const details = response.status_details as { error?: { message?: unknown } } | null | undefined;
  const message = details?.error?.message;
  return `response failed: ${typeof message === 'string' ? redactKeys(message, channelKeys) : 'no reason given'}`;
}
