import type {
  AttemptObservation,
  AttemptResult,
  ObservedAttempt,
  RelayObserver,
  RequestObservation,
  RequestOutcome,
} from '../../relay/relay-observer.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/** Feeds the Prometheus metrics from what the relay reports. */
export class MetricsObserver implements RelayObserver {
  constructor(private readonly metrics: GatewayMetrics) {}

  requestStarted(): RequestObservation {
    return new MetricsRequest(this.metrics);
  }
}

class MetricsRequest implements RequestObservation {
  private streaming = false;

  constructor(private readonly metrics: GatewayMetrics) {}

  rateLimited(limit: 'rpm' | 'tpm'): void {
    this.metrics.rateLimited(limit);
  }

  attemptStarted(attempt: ObservedAttempt): AttemptObservation {
    return new MetricsAttempt(this.metrics, attempt.channelId);
  }

  streamOpened(): void {
    this.streaming = true;
    this.metrics.openStreams.inc();
  }

  finished(outcome: RequestOutcome): void {
    if (this.streaming) this.metrics.openStreams.dec();
    this.streaming = false;
    this.metrics.requestFinished(outcome);
  }

  billed(outcome: RequestOutcome): void {
    this.metrics.billed(outcome);
  }
}

class MetricsAttempt implements AttemptObservation {
  readonly headers = undefined;
  private readonly sentAt = performance.now();
  private firstByteAt: number | undefined;

  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly channelId: number,
  ) {}

  firstByte(): void {
    this.firstByteAt ??= performance.now();
  }

  finished(result: AttemptResult): void {
    const seconds = this.firstByteAt === undefined ? undefined : (this.firstByteAt - this.sentAt) / 1000;
    this.metrics.attemptFinished(this.channelId, result.outcome, seconds);
  }
}
