/** How the gateway reports on itself: logs, metrics, traces, health. Read once at start. */
export interface ObservabilityEnvironment {
  /** `GATEWAY_LOG_FORMAT`: JSON lines, or `pretty` lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /** `GATEWAY_METRICS_PUBLIC=true`: `/metrics` answers without the admin token. */
  metricsPublic: boolean;
  /** The OTLP/HTTP traces URL; tracing is off without `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  tracesUrl: string | undefined;
  /** `OTEL_SERVICE_NAME`, the traces' `service.name`. */
  serviceName: string;
  /**
   * `GATEWAY_SHUTDOWN_DRAIN_S`: on SIGTERM, how long `/readyz` answers 503 while the gateway still
   * accepts requests, so a load balancer stops sending before it stops accepting.
   */
  shutdownDrainMs: number;
}

export function readObservabilityEnvironment(env: NodeJS.ProcessEnv): ObservabilityEnvironment {
  return {
    logFormat: readLogFormat(env.GATEWAY_LOG_FORMAT),
    metricsPublic: readFlag(env.GATEWAY_METRICS_PUBLIC, 'GATEWAY_METRICS_PUBLIC'),
    tracesUrl: readTracesUrl(env),
    serviceName: env.OTEL_SERVICE_NAME || 'model-gateway',
    shutdownDrainMs: readSeconds(env.GATEWAY_SHUTDOWN_DRAIN_S, 'GATEWAY_SHUTDOWN_DRAIN_S') * 1000,
  };
}

function readLogFormat(value: string | undefined): 'json' | 'pretty' {
  if (!value || value === 'json') return 'json';
  if (value === 'pretty') return 'pretty';
  throw new Error(`GATEWAY_LOG_FORMAT must be json or pretty, got "${value}"`);
}

function readFlag(value: string | undefined, name: string): boolean {
  if (!value || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function readSeconds(value: string | undefined, name: string): number {
  if (!value) return 0;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`${name} must be a number of seconds, got "${value}"`);
  return seconds;
}

/**
 * https://opentelemetry.io/docs/specs/otel/protocol/exporter/: the base endpoint gets `/v1/traces`
 * appended; `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, when also set, is the traces URL as it is.
 */
function readTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!base) return undefined;
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${base.replace(/\/+$/, '')}/v1/traces`;
  if (!URL.canParse(url)) throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT is not a URL: "${base}"`);
  return url;
}
