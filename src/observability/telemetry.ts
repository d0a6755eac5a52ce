import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { ObservabilityEnvironment } from '../config/observability-environment.js';
import { isJsonObject, parseJson } from '../protocols/wire-json.js';
import type { RelayObserver } from '../relay/relay-observer.js';
import type { ChannelHealth, HealthChannel } from '../routing/channel-health.js';
import type { PairState } from '../routing/channel-health.js';
import type { Store } from '../store/database.js';
import { fanOutObserver } from './fan-out-observer.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import { MetricsObserver } from './metrics/metrics-observer.js';
import { Readiness } from './readiness.js';
import type { Tracing } from './tracing/tracing.js';

export interface TelemetryOptions {
  environment: ObservabilityEnvironment;
  store: Store;
  redisUrl: string | undefined;
  /** Whether a model is priced: only those name themselves in metric labels. */
  isPriced(model: string): boolean;
  /** Whether a name is a virtual model's: those name themselves in the `requested_model` label. */
  isVirtual(model: string): boolean;
  /** Every channel whose health the metrics show. */
  channels(): Iterable<HealthChannel>;
  health: Pick<ChannelHealth, 'report'>;
  /** Usage records not yet in the usage log. */
  usageWriterQueue(): number;
  /**
   * In a cluster worker: the metrics of every worker of the machine, aggregated; `/metrics`
   * answers with those instead of this process's own.
   */
  machineMetrics?: () => Promise<string>;
}

/** Metrics, traces and readiness of one gateway, and the one observer the relay reports to. */
export class Telemetry {
  readonly metrics: GatewayMetrics;
  readonly readiness: Readiness;
  /** Absent unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set. */
  readonly tracing: Tracing | undefined;
  readonly observer: RelayObserver;
  /** `/metrics` answers without the admin token. */
  readonly metricsPublic: boolean;
  private readonly drainMs: number;
  private readonly machineMetrics: (() => Promise<string>) | undefined;

  /** OpenTelemetry is loaded only when traces are exported. */
  static async open(options: TelemetryOptions): Promise<Telemetry> {
    const { tracesUrl, serviceName } = options.environment;
    if (!tracesUrl) return new Telemetry(options, undefined);
    const { Tracing } = await import('./tracing/tracing.js');
    return new Telemetry(options, new Tracing({ tracesUrl, serviceName, serviceVersion: packageVersion() }));
  }

  private constructor(options: TelemetryOptions, tracing: Tracing | undefined) {
    const { environment } = options;
    this.metricsPublic = environment.metricsPublic;
    this.drainMs = environment.shutdownDrainMs;
    this.machineMetrics = options.machineMetrics;
    this.metrics = new GatewayMetrics({
      isPriced: options.isPriced,
      isVirtual: options.isVirtual,
      pairStates: () => pairStates(options),
      usageWriterQueue: options.usageWriterQueue,
    });
    this.readiness = new Readiness({ store: options.store, redisUrl: options.redisUrl });
    this.tracing = tracing;
    const observers: RelayObserver[] = [new MetricsObserver(this.metrics)];
    if (this.tracing) observers.push(this.tracing.observer);
    this.observer = fanOutObserver(observers);
  }

  /** What `/metrics` answers, in Prometheus text format: the machine's, in a cluster. */
  async exposeMetrics(): Promise<{ contentType: string; body: string }> {
    const { registry } = this.metrics;
    const body = this.machineMetrics ? await this.machineMetrics() : await registry.metrics();
    return { contentType: registry.contentType, body };
  }

  /**
   * Shutdown began: `/readyz` fails from now on, and the drain period (`GATEWAY_SHUTDOWN_DRAIN_S`)
   * passes with requests still accepted, so load balancers stop sending before the gateway stops accepting.
   */
  async drain(): Promise<void> {
    this.readiness.beginShutdown();
    if (this.drainMs > 0) await delay(this.drainMs);
  }

  /** Exports the spans left and closes the readiness checks' connections. */
  async close(): Promise<void> {
    await Promise.all([this.tracing?.close(), this.readiness.close()]);
  }
}

function* pairStates(
  options: Pick<TelemetryOptions, 'channels' | 'health'>,
): Iterable<{ channelId: number; model: string; state: PairState }> {
  for (const channel of options.channels()) {
    for (const { model, state } of options.health.report(channel).models)
      yield { channelId: channel.id, model, state };
  }
}

let version: string | undefined;

/** The gateway's version from its package.json (one folder above `src/` and `dist/`). */
function packageVersion(): string {
  if (version === undefined) {
    let text = '';
    try {
      text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    } catch {
      // Run from somewhere without it: the version stays unknown.
    }
    const parsed = parseJson(text);
    version =
      parsed.ok && isJsonObject(parsed.value) && typeof parsed.value.version === 'string'
        ? parsed.value.version
        : 'unknown';
  }
  return version;
}
