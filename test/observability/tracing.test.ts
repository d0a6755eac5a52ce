import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import {
  addAnthropicChannel,
  addBackupChannel,
  resetChannelHealth,
  startRelayFixture,
  type RelayFixture,
} from '../helpers/relay-fixture.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const SECRET_PROMPT = 'the secret words of the prompt';

let receiver: OtlpReceiver;
let fx: RelayFixture;
let backup: FakeUpstream;
let backupId: number;
let anthropic: FakeUpstream;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const observability = { ...readEnvironment({}).observability, tracesUrl: receiver.url };
  fx = await startRelayFixture({ gateway: { observability } });
  ({ backup, backupId } = await addBackupChannel(fx));
  anthropic = await addAnthropicChannel(fx);
});
afterAll(async () => {
  await fx.close();
  await backup.close();
  await anthropic.close();
  await receiver.close();
});
beforeEach(async () => {
  await resetChannelHealth(fx, [{ id: fx.channelId }, { id: backupId }]);
  for (const upstream of [fx.upstream, backup, anthropic]) upstream.clear();
  receiver.spans.length = 0;
  receiver.bodies.length = 0;
});

/** Sends a chat request with the client's own trace context; returns the gateway's request id. */
async function chat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ messages: [{ role: 'user', content: SECRET_PROMPT }], ...body }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { requestId: response.headers.get('x-gateway-request-id') ?? '', text };
}

/** Every span exported so far: the gateway's spans are flushed first. */
async function exported(): Promise<{ request: ReceivedSpan; attempts: ReceivedSpan[] }> {
  await fx.logs();
  await fx.gw.gateway.services.telemetry.tracing?.flush();
  const requests = receiver.spans.filter((span) => span.kind === 2);
  expect(requests).toHaveLength(1);
  const request = requests[0]!;
  const attempts = receiver.spans.filter((span) => span.kind === 3);
  for (const attempt of attempts) {
    expect(attempt.traceId).toBe(request.traceId);
    expect(attempt.parentSpanId).toBe(request.spanId);
  }
  return { request, attempts };
}

test('a request continues the client trace: GenAI attributes, billed usage, one attempt, context sent upstream', async () => {
  const { requestId } = await chat(
    { model: 'gpt-4o' },
    { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`, tracestate: 'vendor=opaque' },
  );
  const { request, attempts } = await exported();
  const [log] = (await fx.logs()) as {
    prompt_tokens: number;
    completion_tokens: number;
    cached_tokens: number;
    cache_write_tokens: number;
    reasoning_tokens: number;
    cost: number;
  }[];

  expect(request.traceId).toBe(TRACE_ID);
  expect(request.parentSpanId).toBe(CLIENT_SPAN_ID);
  expect(request.name).toBe('chat gpt-4o');
  expect(request.resource['service.name']).toBe('model-gateway');
  expect(request.statusCode).toBe(0);
  expect(request.attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.system': 'openai',
    'gen_ai.request.model': 'gpt-4o',
    'gateway.requested_model': 'gpt-4o',
    'gen_ai.response.model': 'gpt-4o-2024-08-06',
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.request.stream': false,
    'gen_ai.usage.input_tokens': log?.prompt_tokens,
    'gen_ai.usage.output_tokens': log?.completion_tokens,
    'gen_ai.usage.cache_read.input_tokens': log?.cached_tokens,
    'gen_ai.usage.cache_creation.input_tokens': log?.cache_write_tokens,
    'gen_ai.usage.reasoning.output_tokens': log?.reasoning_tokens,
    'gateway.request.id': requestId,
    'gateway.endpoint': 'chat-completions',
    'gateway.channel.id': fx.channelId,
    'gateway.user.id': fx.userId,
    'gateway.key.id': fx.keyId,
    'http.response.status_code': 200,
  });
  expect(request.attributes['gateway.cost.usd']).toBeCloseTo(log?.cost ?? Number.NaN, 9);
  expect(log?.cached_tokens).toBeGreaterThan(0);

  expect(attempts).toHaveLength(1);
  const [attempt] = attempts;
  expect(attempt?.name).toBe('chat gpt-4o-2024-08-06');
  expect(attempt?.attributes).toMatchObject({
    'gen_ai.request.model': 'gpt-4o-2024-08-06',
    'gen_ai.provider.name': 'openai',
    'gateway.channel.id': fx.channelId,
    'gateway.attempt.outcome': 'success',
    'http.response.status_code': 200,
  });
  expect(attempt?.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
  // The upstream call carries the attempt span's context, and the client's trace state.
  const [sent] = fx.upstream.requests;
  expect(sent?.headers.traceparent).toBe(`00-${TRACE_ID}-${attempt?.spanId}-01`);
  expect(sent?.headers.tracestate).toBe('vendor=opaque');
  // No prompt or completion text anywhere in what was exported.
  expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
  for (const body of receiver.bodies) {
    expect(body).not.toContain(SECRET_PROMPT);
    expect(body).not.toContain('Hello from fake OpenAI');
  }
});

test('failover: one child span per attempt with its outcome, each attempt with its own context', async () => {
  fx.upstream.script({ type: 'error', status: 500 });
  await chat({ model: 'gpt-4o' }, { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01` });
  const { request, attempts } = await exported();
  expect(request.attributes['gateway.channel.id']).toBe(backupId);
  expect(attempts.map((span) => span.attributes['gateway.attempt.outcome'])).toEqual([
    'server_error',
    'success',
  ]);
  const [failed, succeeded] = attempts;
  expect(failed?.attributes).toMatchObject({
    'gateway.channel.id': fx.channelId,
    'http.response.status_code': 500,
    'error.type': '500',
  });
  expect(failed?.statusCode).toBe(2);
  expect(succeeded?.attributes['gateway.channel.id']).toBe(backupId);
  expect(succeeded?.statusCode).toBe(0);
  expect(fx.upstream.requests[0]?.headers.traceparent).toBe(`00-${TRACE_ID}-${failed?.spanId}-01`);
  expect(backup.requests[0]?.headers.traceparent).toBe(`00-${TRACE_ID}-${succeeded?.spanId}-01`);
});

test('a stream: the request span ends when the stream does, with the usage the stream reported', async () => {
  fx.upstream.script({ type: 'reply', chunkDelayMs: 60 });
  const started = Date.now();
  await chat({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true } });
  const finished = Date.now();
  const { request, attempts } = await exported();
  expect(request.attributes).toMatchObject({
    'gen_ai.request.stream': true,
    'gen_ai.response.model': 'gpt-4o-2024-08-06',
    'gen_ai.response.finish_reasons': ['stop'],
  });
  expect(request.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
  // The attempt ended at its first chunk; the request only once the last one was relayed.
  const attemptEnd = attempts[0]?.endMs ?? Number.NaN;
  expect(request.endMs - attemptEnd).toBeGreaterThanOrEqual(100);
  expect(request.startMs).toBeGreaterThanOrEqual(started - 5);
  expect(request.startMs).toBeLessThanOrEqual(attempts[0]?.startMs ?? Number.NaN);
  expect(request.endMs).toBeLessThanOrEqual(finished + 5);
});

test('converted to another protocol: the provider, model and finish reason of the upstream that answered', async () => {
  await chat({ model: 'claude-sonnet-4-5', max_tokens: 64 });
  const { request, attempts } = await exported();
  expect(request.parentSpanId).toBeUndefined();
  expect(request.attributes).toMatchObject({
    'gen_ai.provider.name': 'anthropic',
    'gen_ai.request.model': 'claude-sonnet-4-5',
    'gen_ai.response.model': 'claude-sonnet-4-5',
    'gen_ai.response.finish_reasons': ['end_turn'],
  });
  expect(attempts[0]?.attributes['gen_ai.provider.name']).toBe('anthropic');
  expect(anthropic.requests[0]?.headers.traceparent).toMatch(
    new RegExp(`^00-${request.traceId}-${attempts[0]?.spanId}-01$`),
  );
});

test('a virtual model: the model that served it, and the name the client sent', async () => {
  await fx.gw.admin('POST', '/virtual-models', {
    name: 'traced-alias',
    targets: [{ model: 'claude-sonnet-4-5' }],
  });
  await chat({ model: 'traced-alias', max_tokens: 64 });
  const { request } = await exported();
  expect(request.name).toBe('chat claude-sonnet-4-5');
  expect(request.attributes).toMatchObject({
    'gen_ai.request.model': 'claude-sonnet-4-5',
    'gateway.requested_model': 'traced-alias',
  });
});

test('without OTEL_EXPORTER_OTLP_ENDPOINT nothing is traced and no trace context goes upstream', async () => {
  const plain = await startRelayFixture();
  try {
    expect(plain.gw.gateway.services.telemetry.tracing).toBeUndefined();
    await plain.openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(plain.upstream.requests[0]?.headers.traceparent).toBeUndefined();
  } finally {
    await plain.close();
  }
});
