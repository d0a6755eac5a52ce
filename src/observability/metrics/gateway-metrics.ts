import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { PairState } from '../../routing/channel-health.js';
import type { AttemptOutcome, RequestOutcome } from '../../relay/relay-observer.js';
import { NANO_PER_USD } from '../../billing/money.js';
import { BucketFamily } from './bucket-family.js';
import { LabelledChildren } from './labelled-children.js';
import { TallyFamily, type Tally } from './tally-family.js';

/** Whole requests: from 50 ms to ten minutes (a long generation or a held stream). */
const REQUEST_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600];
/** An upstream's first byte: from a cached answer (5 ms) to a slow model thinking first (60 s). */
const FIRST_BYTE_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

const PAIR_STATES: readonly PairState[] = ['healthy', 'cooling_down', 'probing'];

/** What the metrics read from the rest of the gateway, at scrape time or to bound a label. */
export interface MetricsSources {
  /** Only priced models name themselves in the `model` label; any other is `other`. */
  isPriced(model: string): boolean;
  /** Virtual models also name themselves in the `requested_model` label. */
  isVirtual(model: string): boolean;
  /** The state of every (channel, model) pair of every channel. */
  pairStates(): Iterable<{ channelId: number; model: string; state: PairState }>;
  /** Usage records not yet in `usage_logs`: settlements being written and records waiting for the batch. */
  usageWriterQueue(): number;
}

/** One model's billed series: five token kinds and the cost, found with one lookup. */
interface ModelBilling {
  input: Tally;
  cached: Tally;
  cacheWrite: Tally;
  output: Tally;
  reasoning: Tally;
  cost: Tally;
}

/**
 * The gateway's Prometheus metrics (admin-api section 9), one registry per gateway. Every label
 * value is bounded: endpoints and outcomes are the gateway's own names, channels are ids, statuses
 * are HTTP codes, and a model is named only when it is priced. Counters add to plain numbers and
 * histograms count into plain buckets, so a request costs a few map lookups.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly openStreams: Gauge;
  private readonly requests: TallyFamily;
  private readonly attempts: TallyFamily;
  private readonly rateLimits: TallyFamily;
  private readonly sticky: TallyFamily;
  private readonly retentionDeleted: TallyFamily;
  private readonly guardrails: TallyFamily;
  private readonly retentionCaughtUp: Gauge;
  private readonly retentionLastBatch: Gauge;
  private readonly bodiesDroppedTotal: Counter;
  private readonly billing: LabelledChildren<ModelBilling>;
  private readonly durations: BucketFamily;
  private readonly firstBytes: BucketFamily;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    // The event-loop delay histogram samples on a timer of its own; at prom-client's default 10 ms
    // that timer woke an idle gateway a hundred times a second: 11 of its 14 ms of CPU a second.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 100 });
    this.requests = new TallyFamily({
      name: 'gateway_requests_total',
      help: 'Relayed requests by endpoint, model that served them, model the client named (a virtual model or the same), channel (none before one answered) and HTTP status.',
      labelNames: ['endpoint', 'model', 'requested_model', 'channel', 'status'],
      registers,
    });
    this.durations = new BucketFamily({
      name: 'gateway_request_duration_seconds',
      help: 'Time from a relayed request arriving to its end (for streams: the last byte).',
      labelNames: ['endpoint', 'stream'],
      buckets: REQUEST_SECONDS,
      registers,
    });
    this.firstBytes = new BucketFamily({
      name: 'gateway_upstream_first_byte_seconds',
      help: "Time from sending a successful upstream call to its first byte (a stream's first chunk, a reply's head).",
      labelNames: ['channel'],
      buckets: FIRST_BYTE_SECONDS,
      registers,
    });
    const tokens = new TallyFamily({
      name: 'gateway_tokens_total',
      help: 'Billed tokens by model and kind: input (cache reads and writes included), cached, cache_write, output (reasoning included), reasoning.',
      labelNames: ['model', 'kind'],
      registers,
    });
    const costs = new TallyFamily({
      name: 'gateway_cost_usd_total',
      help: 'Billed cost in US dollars by model.',
      labelNames: ['model'],
      registers,
    });
    this.billing = new LabelledChildren(([model = 'other']) => ({
      input: tokens.get([model, 'input']),
      cached: tokens.get([model, 'cached']),
      cacheWrite: tokens.get([model, 'cache_write']),
      output: tokens.get([model, 'output']),
      reasoning: tokens.get([model, 'reasoning']),
      cost: costs.get([model]),
    }));
    this.attempts = new TallyFamily({
      name: 'gateway_upstream_attempts_total',
      help: 'Upstream calls by channel and outcome (success, refused, rate_limited, server_error, client_error, timeout, unreachable, aborted).',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    this.rateLimits = new TallyFamily({
      name: 'gateway_rate_limited_total',
      help: "Requests refused by a key's rate limit, by limit (rpm, tpm).",
      labelNames: ['limit'],
      registers,
    });
    this.sticky = new TallyFamily({
      name: 'gateway_sticky_routing_total',
      help: 'Answered requests with a prompt-cache affinity key, by result: hit (its sticky channel served it), miss (no sticky choice yet), moved (another channel or target served it).',
      labelNames: ['result'],
      registers,
    });
    this.guardrails = new TallyFamily({
      name: 'gateway_guardrail_verdicts_total',
      help: "Guardrails' verdicts on requests, by guardrail name and verdict: pass, match (the pattern matched, or the webhook did not allow), error (the webhook failed or timed out).",
      labelNames: ['guardrail', 'verdict'],
      registers,
    });
    this.retentionDeleted = new TallyFamily({
      name: 'gateway_retention_deleted_total',
      help: 'Records deleted by log retention, by table.',
      labelNames: ['table'],
      registers,
    });
    this.retentionCaughtUp = new Gauge({
      name: 'gateway_retention_caught_up',
      help: "1 when log retention's last batch of the table found fewer old records than a batch holds (nothing left to delete), 0 while it works off a backlog.",
      labelNames: ['table'],
      registers,
      // Only the process holding the job's lease prunes: the machine's figure is any worker's that did.
      aggregator: 'max',
    });
    this.retentionLastBatch = new Gauge({
      name: 'gateway_retention_last_batch_timestamp_seconds',
      help: "Unix time of log retention's last batch of the table.",
      labelNames: ['table'],
      registers,
      aggregator: 'max',
    });
    this.bodiesDroppedTotal = new Counter({
      name: 'gateway_logged_bodies_dropped_total',
      help: 'Request and response bodies not stored: the database could not take them while too many waited, or they failed where the usage records they came with did not.',
      registers,
    });
    this.openStreams = new Gauge({
      name: 'gateway_open_streams',
      help: 'Streams being relayed to clients now.',
      registers,
    });
    const pairStates: Gauge = new Gauge({
      name: 'gateway_channel_model_state',
      help: 'Channel and model pairs in each health state (healthy, cooling_down, probing); unpriced models count under model "other".',
      labelNames: ['channel', 'model', 'state'],
      registers,
      // Every worker of a cluster sees the same health: the machine's count is any one worker's.
      aggregator: 'max',
      collect: () => this.collectPairStates(pairStates),
    });
    const queue: Gauge = new Gauge({
      name: 'gateway_usage_writer_queue',
      help: 'Usage records not yet in the usage log: settlements being written and records waiting for the batch move.',
      registers,
      collect: () => queue.set(sources.usageWriterQueue()),
    });
  }

  /** The `model` label: the model when it is priced, else `other`, so client input cannot grow the series. */
  modelLabel(model: string | undefined): string {
    return model !== undefined && this.sources.isPriced(model) ? model : 'other';
  }

  /** The `requested_model` label: a priced model or a virtual model by name, else `other`. */
  requestedModelLabel(model: string | undefined): string {
    return model !== undefined && (this.sources.isPriced(model) || this.sources.isVirtual(model))
      ? model
      : 'other';
  }

  requestFinished(outcome: RequestOutcome): void {
    const channel = outcome.channelId === null ? 'none' : String(outcome.channelId);
    const model = this.modelLabel(outcome.model);
    const requested =
      outcome.requestedModel === outcome.model ? model : this.requestedModelLabel(outcome.requestedModel);
    this.requests.get([outcome.endpoint, model, requested, channel, String(outcome.statusCode)]).value += 1;
    if (outcome.sticky !== undefined) this.sticky.get([outcome.sticky]).value += 1;
    this.durations
      .get([outcome.endpoint, outcome.stream ? 'true' : 'false'])
      .observe(outcome.latencyMs / 1000);
  }

  /** Tokens and money move by what the settlement billed, exactly as the usage log records it. */
  billed(outcome: RequestOutcome): void {
    const { tokens } = outcome;
    if (!tokens) return;
    const series = this.billing.get([this.modelLabel(outcome.model)]);
    series.input.value += tokens.input;
    series.cached.value += tokens.cached;
    series.cacheWrite.value += tokens.cacheWrite;
    series.output.value += tokens.output;
    series.reasoning.value += tokens.reasoning;
    series.cost.value += outcome.cost / NANO_PER_USD;
  }

  attemptFinished(channelId: number, outcome: AttemptOutcome, firstByteSeconds: number | undefined): void {
    const channel = String(channelId);
    this.attempts.get([channel, outcome]).value += 1;
    if (outcome === 'success' && firstByteSeconds !== undefined)
      this.firstBytes.get([channel]).observe(firstByteSeconds);
  }

  rateLimited(limit: 'rpm' | 'tpm'): void {
    this.rateLimits.get([limit]).value += 1;
  }

  /** A guardrail judged a request; guardrail names are the admin's, so the series stay bounded. */
  guardrailVerdict(guardrail: string, verdict: 'pass' | 'match' | 'error'): void {
    this.guardrails.get([guardrail, verdict]).value += 1;
  }

  /** One batch of log retention: how many records of `table` it deleted, and whether it found the last. */
  bodiesDropped(count: number): void {
    this.bodiesDroppedTotal.inc(count);
  }

  retentionBatch(table: string, deleted: number, caughtUp: boolean): void {
    this.retentionDeleted.get([table]).value += deleted;
    this.retentionCaughtUp.set({ table }, caughtUp ? 1 : 0);
    this.retentionLastBatch.set({ table }, Math.floor(Date.now() / 1000));
  }

  private collectPairStates(gauge: Gauge): void {
    gauge.reset();
    const counts = new Map<string, { channel: string; model: string; state: PairState; count: number }>();
    for (const pair of this.sources.pairStates()) {
      const channel = String(pair.channelId);
      const model = this.modelLabel(pair.model);
      for (const state of PAIR_STATES) {
        const id = `${channel}\n${model}\n${state}`;
        const entry = counts.get(id) ?? { channel, model, state, count: 0 };
        if (state === pair.state) entry.count += 1;
        counts.set(id, entry);
      }
    }
    for (const { channel, model, state, count } of counts.values())
      gauge.set({ channel, model, state }, count);
  }
}
