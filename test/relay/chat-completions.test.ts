import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startRelayFixture, UPSTREAM_KEY, type RelayFixture } from '../helpers/relay-fixture.js';

let fx: RelayFixture;
beforeAll(async () => {
  fx = await startRelayFixture();
});
afterAll(async () => fx.close());
beforeEach(() => fx.upstream.clear());

test('JSON: the SDK gets the upstream reply; only the model name and the auth change on the way', async () => {
  const completion = await fx.openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Say hello' }],
    temperature: 0.2,
    // an unknown field travels untouched
    ...({ vendor_extension: { keep: [1, 'two'] } } as object),
  });
  expect(completion.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
  expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });

  const sent = fx.upstream.requests[0]!;
  expect(sent.path).toBe('/v1/chat/completions');
  expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
  expect(sent.body).toEqual({
    model: 'gpt-4o-2024-08-06',
    messages: [{ role: 'user', content: 'Say hello' }],
    temperature: 0.2,
    vendor_extension: { keep: [1, 'two'] },
  });
});

test('JSON: the usage log and the balance follow the reported usage exactly', async () => {
  const before = await fx.user();
  await fx.openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  const [log] = await fx.logs();
  // 20 input (8 cached), 12 output: (12 * 2.5 + 8 * 1.25 + 12 * 10) / 1e6 = 0.00016 USD
  expect(log).toMatchObject({
    user_id: fx.userId,
    key_id: fx.keyId,
    channel_id: fx.channelId,
    model: 'gpt-4o',
    endpoint: 'chat-completions',
    stream: false,
    status_code: 200,
    prompt_tokens: 20,
    completion_tokens: 12,
    cached_tokens: 8,
    reasoning_tokens: 5,
    cost: 0.00016,
    error: null,
  });
  expect(log.latency_ms).toBeGreaterThanOrEqual(0);
  expect(log.first_byte_ms).toBeGreaterThanOrEqual(0);
  const after = await fx.user();
  expect(after.balance).toBeCloseTo(before.balance - 0.00016, 12);
  expect(after.used).toBeCloseTo(before.used + 0.00016, 12);
});

test('stream: chunks arrive in order; the usage chunk the client did not ask for is hidden', async () => {
  const stream = await fx.openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let text = '';
  let sawUsage = false;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    if (chunk.usage) sawUsage = true;
  }
  expect(text).toBe('Hello from fake OpenAI.');
  expect(sawUsage).toBe(false);
  expect((fx.upstream.requests[0]!.body as any).stream_options).toEqual({ include_usage: true });
  const [log] = await fx.logs();
  expect(log).toMatchObject({ stream: true, prompt_tokens: 20, completion_tokens: 12, status_code: 200 });
});

test('stream: a client that asks for usage gets the usage chunk', async () => {
  const stream = await fx.openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let usage: unknown;
  for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
  expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
});

test('tools: tool calls come back in JSON and in streams', async () => {
  const tools = [
    {
      type: 'function' as const,
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ];
  fx.upstream.script({ type: 'reply', toolArguments: '{"city":"Paris"}' });
  const completion = await fx.openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools,
  });
  const call = completion.choices[0]?.message.tool_calls?.[0];
  expect(call?.type === 'function' && call.function).toMatchObject({
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
  });
  expect((fx.upstream.requests[0]!.body as any).tools).toEqual(tools);

  fx.upstream.script({ type: 'reply', toolArguments: '{"city":"Rome"}' });
  const stream = await fx.openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Weather in Rome?' }],
    tools,
    stream: true,
  });
  let argumentsText = '';
  for await (const chunk of stream)
    argumentsText += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
  expect(argumentsText).toBe('{"city":"Rome"}');
});
