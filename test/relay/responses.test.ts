import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

let fx: RelayFixture;
beforeAll(async () => {
  fx = await startRelayFixture();
});
afterAll(async () => fx.close());
beforeEach(() => fx.upstream.clear());

test('JSON: the response object of client-api 2.3, with usage, through the SDK', async () => {
  const response = await fx.openai.responses.create({
    model: 'gpt-4o',
    input: 'Say hello',
    instructions: 'Be brief',
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'session-1',
  });
  expect(response.object).toBe('response');
  expect(response.status).toBe('completed');
  expect(response.output_text).toBe('Hello from fake OpenAI.');
  const message = response.output.find((item) => item.type === 'message');
  expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
  expect(response.usage).toMatchObject({
    input_tokens: 20,
    output_tokens: 12,
    total_tokens: 32,
    input_tokens_details: { cached_tokens: 8 },
    output_tokens_details: { reasoning_tokens: 5 },
  });
  const sent = fx.upstream.requests[0]!;
  expect(sent.path).toBe('/v1/responses');
  expect(sent.body).toEqual({
    model: 'gpt-4o-2024-08-06',
    input: 'Say hello',
    instructions: 'Be brief',
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'session-1',
  });
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    endpoint: 'responses',
    prompt_tokens: 20,
    completion_tokens: 12,
    cached_tokens: 8,
    cost: 0.00016,
  });
});

test('stream: the events of client-api section 6, numbered from 0, and usage charged from response.completed', async () => {
  const stream = await fx.openai.responses.create({ model: 'gpt-4o', input: 'hi', stream: true });
  const events: { type: string; sequence_number: number }[] = [];
  let text = '';
  for await (const event of stream) {
    events.push(event);
    if (event.type === 'response.output_text.delta') text += event.delta;
  }
  expect(text).toBe('Hello from fake OpenAI.');
  expect(events[0]).toMatchObject({ type: 'response.created', sequence_number: 0 });
  expect(events.at(-1)?.type).toBe('response.completed');
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  const created = events[0] as unknown as { response: { status: string; output: unknown[] } };
  expect(created.response.status).toBe('in_progress');
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    endpoint: 'responses',
    stream: true,
    prompt_tokens: 20,
    completion_tokens: 12,
  });
});

test('tools: a function call comes back as an output item', async () => {
  fx.upstream.script({ type: 'reply', toolArguments: '{"q":"gateway"}' });
  const response = await fx.openai.responses.create({
    model: 'gpt-4o',
    input: 'search',
    tools: [
      { type: 'function', name: 'search', parameters: { type: 'object', properties: {} }, strict: false },
    ],
  });
  const call = response.output.find((item) => item.type === 'function_call');
  expect(call).toMatchObject({ type: 'function_call', name: 'search', arguments: '{"q":"gateway"}' });
});
