import { afterAll, beforeAll, expect, test } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { parsePrometheusText } from '../helpers/prometheus-text.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.close();
});

const scrape = (headers: Record<string, string> = {}) => fetch(`${gw.origin}/metrics`, { headers });

test.each([
  ['no credentials', {}],
  ['a wrong token', { authorization: 'Bearer not-the-admin-token' }],
  ['the token without Bearer', { authorization: TEST_ADMIN_TOKEN }],
])('/metrics with %s: 401 in the management API error shape', async (_name, headers) => {
  const response = await scrape(headers);
  expect(response.status).toBe(401);
  expect(response.headers.get('x-gateway-request-id')).toMatch(/^[0-9a-f]{32}$/);
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({
    message: expect.stringMatching(/^Missing or invalid admin credentials \(request id: [0-9a-f]{32}\)$/),
    type: 'gateway_api_error',
    code: 'unauthorized',
  });
  // Exactly what the management API answers the same credentials, but for the request id.
  const management = await fetch(`${gw.origin}/api/users`, { headers });
  expect(management.status).toBe(401);
  const withoutId = (error: Record<string, unknown>) => ({
    ...error,
    message: String(error.message).replace(/[0-9a-f]{32}/, '<id>'),
  });
  const expected = (await management.json()) as { error: Record<string, unknown> };
  expect({ error: withoutId(body.error) }).toEqual({ error: withoutId(expected.error) });
});

test('/metrics with the admin token: every family of admin-api section 9, with its type', async () => {
  const response = await scrape({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
  expect(response.status).toBe(200);
  const families = parsePrometheusText(await response.text());
  const types = Object.fromEntries([...families.values()].map((family) => [family.name, family.type]));
  expect(types).toMatchObject({
    gateway_requests_total: 'counter',
    gateway_request_duration_seconds: 'histogram',
    gateway_upstream_first_byte_seconds: 'histogram',
    gateway_tokens_total: 'counter',
    gateway_cost_usd_total: 'counter',
    gateway_open_streams: 'gauge',
    gateway_channel_model_state: 'gauge',
    gateway_rate_limited_total: 'counter',
    gateway_upstream_attempts_total: 'counter',
    gateway_usage_writer_queue: 'gauge',
    process_cpu_user_seconds_total: 'counter',
    process_resident_memory_bytes: 'gauge',
    nodejs_eventloop_lag_seconds: 'gauge',
  });
  for (const name of Object.keys(types).filter((each) => each.startsWith('gateway_')))
    expect(families.get(name)?.help).not.toBe('');
});

test('GATEWAY_METRICS_PUBLIC=true: /metrics answers without the token', async () => {
  const environment = readEnvironment({ GATEWAY_METRICS_PUBLIC: 'true' });
  expect(environment.observability.metricsPublic).toBe(true);
  const open = await startTestGateway({ observability: environment.observability });
  try {
    const response = await fetch(`${open.origin}/metrics`);
    expect(response.status).toBe(200);
    expect(parsePrometheusText(await response.text()).has('gateway_requests_total')).toBe(true);
  } finally {
    await open.close();
  }
});

test('the observability variables are read strictly', () => {
  const defaults = readEnvironment({}).observability;
  expect(defaults).toEqual({
    logFormat: 'json',
    metricsPublic: false,
    tracesUrl: undefined,
    serviceName: 'model-gateway',
    shutdownDrainMs: 0,
  });
  expect(() => readEnvironment({ GATEWAY_METRICS_PUBLIC: 'yes' })).toThrow(/GATEWAY_METRICS_PUBLIC/);
  expect(() => readEnvironment({ GATEWAY_LOG_FORMAT: 'xml' })).toThrow(/GATEWAY_LOG_FORMAT/);
  expect(() => readEnvironment({ GATEWAY_SHUTDOWN_DRAIN_S: '-1' })).toThrow(/GATEWAY_SHUTDOWN_DRAIN_S/);
  const traced = readEnvironment({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
    OTEL_SERVICE_NAME: 'edge-gateway',
    GATEWAY_SHUTDOWN_DRAIN_S: '5',
    GATEWAY_LOG_FORMAT: 'pretty',
  }).observability;
  expect(traced).toMatchObject({
    tracesUrl: 'http://127.0.0.1:4318/v1/traces',
    serviceName: 'edge-gateway',
    shutdownDrainMs: 5000,
    logFormat: 'pretty',
  });
  expect(
    readEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9999/custom',
    }).observability.tracesUrl,
  ).toBe('http://127.0.0.1:9999/custom');
  // Only the base endpoint turns tracing on.
  expect(
    readEnvironment({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9999/custom' }).observability
      .tracesUrl,
  ).toBeUndefined();
});
