import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { RelayObserver } from '../../relay/relay-observer.js';
import { TracingObserver } from './tracing-observer.js';

export interface TracingOptions {
  /** The OTLP/HTTP traces URL (`.../v1/traces`). */
  tracesUrl: string;
  serviceName: string;
  serviceVersion: string;
}

/**
 * OpenTelemetry tracing of relayed requests, exported over OTLP/HTTP (JSON) in batches. The
 * provider is the gateway's own, not registered globally, and contexts travel explicitly: two
 * gateways in one process (tests) never share a tracer.
 */
export class Tracing {
  readonly observer: RelayObserver;
  private readonly provider: BasicTracerProvider;

  constructor(options: TracingOptions) {
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        [ATTR_SERVICE_NAME]: options.serviceName,
        [ATTR_SERVICE_VERSION]: options.serviceVersion,
      }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.tracesUrl }))],
    });
    this.observer = new TracingObserver(
      this.provider.getTracer('model-gateway', options.serviceVersion),
      new W3CTraceContextPropagator(),
    );
  }

  /** Exports every ended span now. */
  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }

  /** Exports what is left and stops. */
  async close(): Promise<void> {
    await this.provider.shutdown();
  }
}
