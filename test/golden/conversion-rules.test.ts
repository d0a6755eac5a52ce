import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { signThinking } from '../fakes/anthropic-messages-reply.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { PNG_BASE64 } from './matrix-clients.js';

/** The conversion rules of client-api 4.5, 4.7 and 4.8 and the model modifier of admin-api section 4. */
const KEY = 'rules-upstream-key';
let gw: TestGateway;
let openaiFake: FakeUpstream;
let anthropicFake: FakeUpstream;
let geminiFake: FakeUpstream;
let openai: OpenAI;
let anthropic: Anthropic;
let apiKey: string;
let images: Server;
let imageOrigin: string;

type Json = Record<string, any>;
const lastBody = (fake: FakeUpstream) => fake.requests.at(-1)!.body as Json;

beforeAll(async () => {
  gw = await startTestGateway();
  openaiFake = await startFakeOpenAI({ apiKey: KEY });
  anthropicFake = await startFakeAnthropic({ apiKey: KEY });
  geminiFake = await startFakeGemini({ apiKey: KEY });
  const channels: [string, FakeUpstream, string][] = [
    ['openai', openaiFake, 'gpt-4o'],
    ['anthropic', anthropicFake, 'claude-sonnet-4'],
    ['gemini', geminiFake, 'gemini-2.5-pro'],
  ];
  for (const [type, fake, model] of channels) {
    await gw.admin('POST', '/channels', {
      name: type,
      type,
      base_url: fake.origin,
      keys: [KEY],
      models: [model],
    });
    await gw.admin('PUT', `/prices/${model}`, { input: 1, output: 2 });
  }
  const user = await gw.admin('POST', '/users', { username: 'rules', balance: 100 });
  apiKey = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
  openai = new OpenAI({ apiKey, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey, baseURL: gw.origin, maxRetries: 0 });
  images = createServer((request, response) => {
    if (request.url === '/cat.png')
      return void response
        .writeHead(200, { 'content-type': 'image/png' })
        .end(Buffer.from(PNG_BASE64, 'base64'));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageOrigin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gw.close();
  await Promise.all([openaiFake.close(), anthropicFake.close(), geminiFake.close()]);
  await new Promise((resolve) => images.close(resolve));
});
beforeEach(() => {
  for (const fake of [openaiFake, anthropicFake, geminiFake]) fake.clear();
});

test('chat completions to a family B model: default max_tokens, stop_sequences, developer into system, web search tool', async () => {
  await openai.chat.completions.create({
    model: 'claude-sonnet-4',
    messages: [
      { role: 'developer', content: 'Be terse.' },
      { role: 'user', content: 'Search the news' },
    ],
    stop: ['END'],
    web_search_options: {},
  });
  const body = lastBody(anthropicFake);
  expect(body.max_tokens).toBe(8192);
  expect(body.stop_sequences).toEqual(['END']);
  expect(body.system).toBe('Be terse.');
  expect(body.messages).toEqual([{ role: 'user', content: 'Search the news' }]);
  expect(body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);

  await gw.admin('PATCH', '/settings', { default_max_tokens: 1000 });
  try {
    await openai.chat.completions.create({
      model: 'claude-sonnet-4',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(lastBody(anthropicFake).max_tokens).toBe(1000);
    await openai.chat.completions.create({
      model: 'claude-sonnet-4',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 77,
    });
    expect(lastBody(anthropicFake).max_tokens).toBe(77);
  } finally {
    await gw.admin('PATCH', '/settings', { default_max_tokens: 8192 });
  }
});

test('chat completions to a family B model: thinking comes back in reasoning_content, without its signature', async () => {
  const completion = await openai.chat.completions.create({
    model: 'claude-sonnet-4',
    messages: [{ role: 'user', content: 'Think first' }],
    max_tokens: 4096,
    reasoning_effort: 'low',
  });
  expect(lastBody(anthropicFake).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  const message = completion.choices[0]!.message as unknown as Json;
  expect(message.reasoning_content).toBe('Let me think about that.');
  expect(JSON.stringify(completion)).not.toContain('sig_');
});

test('/v1/messages to a non-B model: system blocks merged, function tools, base64 images, usage in the stream', async () => {
  const stream = anthropic.messages.stream({
    model: 'gpt-4o',
    max_tokens: 512,
    system: [
      { type: 'text', text: 'You are helpful.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Answer in English.' },
    ],
    tools: [{ name: 'lookup', description: 'Look up', input_schema: { type: 'object', properties: {} } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
        ],
      },
    ],
  });
  const events: Anthropic.RawMessageStreamEvent[] = [];
  stream.on('streamEvent', (event) => events.push(event));
  const message = await stream.finalMessage();

  const body = lastBody(openaiFake);
  const system = body.messages.filter((item: Json) => item.role === 'system');
  expect(system).toHaveLength(1);
  expect(system[0].content).toBe('You are helpful.\nAnswer in English.');
  expect(body.tools).toEqual([
    {
      type: 'function',
      function: { name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } },
    },
  ]);
  const user = body.messages.find((item: Json) => item.role === 'user');
  expect(user.content).toContainEqual({
    type: 'image_url',
    image_url: { url: `data:image/png;base64,${PNG_BASE64}` },
  });

  const start = events.find((event) => event.type === 'message_start') as Anthropic.RawMessageStartEvent;
  const delta = events.find((event) => event.type === 'message_delta') as Anthropic.RawMessageDeltaEvent;
  expect(start.message.usage.input_tokens).toBeGreaterThan(0);
  // The fake reports 20 input tokens (8 cached) and 12 output: the final delta is authoritative.
  expect(delta.usage.output_tokens).toBe(12);
  expect(message.usage.output_tokens).toBe(12);
  expect(delta.usage.input_tokens! + (delta.usage.cache_read_input_tokens ?? 0)).toBe(20);
});

test('the @effort modifier reaches each upstream in its own form, stripped from routing and pricing', async () => {
  await openai.chat.completions.create({ model: 'gpt-4o@high', messages: [{ role: 'user', content: 'hi' }] });
  expect(lastBody(openaiFake)).toMatchObject({ model: 'gpt-4o', reasoning_effort: 'high' });

  await openai.responses.create({ model: 'gpt-4o@effort=medium', input: 'hi' });
  expect(lastBody(openaiFake)).toMatchObject({ model: 'gpt-4o', reasoning: { effort: 'medium' } });

  await openai.chat.completions.create({
    model: 'claude-sonnet-4@low',
    messages: [{ role: 'user', content: 'hi' }],
    max_tokens: 8000,
  });
  expect(lastBody(anthropicFake)).toMatchObject({
    model: 'claude-sonnet-4',
    thinking: { type: 'enabled', budget_tokens: 2048 },
  });

  await anthropic.messages.create({
    model: 'claude-sonnet-4@none',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
  });
  expect(lastBody(anthropicFake).thinking).toEqual({ type: 'disabled' });

  await openai.chat.completions.create({
    model: 'gemini-2.5-pro@none',
    messages: [{ role: 'user', content: 'hi' }],
  });
  expect(lastBody(geminiFake).generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
  expect(geminiFake.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');

  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
  const [log] = (await gw.admin('GET', '/logs?limit=1')).body.data;
  expect(log.model).toBe('gemini-2.5-pro');
});

test('an image link is downloaded for upstreams that need bytes; a link that cannot be fetched fails with get file data failed', async () => {
  const ask = (model: string, url: string) =>
    fetch(`${gw.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image_url', image_url: { url } },
            ],
          },
        ],
      }),
    });

  // Loopback is refused by default: a private address is never fetched.
  const refused = await ask('claude-sonnet-4', `${imageOrigin}/cat.png`);
  expect(refused.status).toBe(500);
  const error = ((await refused.json()) as Json).error;
  expect(error.code).toBe('convert_request_failed');
  expect(error.message).toMatch(
    /^get file data failed: http:\/\/127\.0\.0\.1:\d+\/cat\.png: 127\.0\.0\.1 is not a public address \(request id/,
  );
  expect(anthropicFake.requests).toHaveLength(0);

  await gw.admin('PATCH', '/settings', { image_fetch_allow_private: true });
  try {
    expect((await ask('claude-sonnet-4', `${imageOrigin}/cat.png`)).status).toBe(200);
    const block = lastBody(anthropicFake).messages[0].content[1];
    expect(block).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
    });

    expect((await ask('gemini-2.5-pro', `${imageOrigin}/cat.png`)).status).toBe(200);
    expect(lastBody(geminiFake).contents[0].parts[1]).toEqual({
      inlineData: { mimeType: 'image/png', data: PNG_BASE64 },
    });

    const missing = await ask('claude-sonnet-4', `${imageOrigin}/missing.png`);
    expect(missing.status).toBe(500);
    expect(((await missing.json()) as Json).error.message).toMatch(/^get file data failed: .*HTTP 404/);

    // An OpenAI upstream fetches links itself: the link travels as it is.
    expect((await ask('gpt-4o', `${imageOrigin}/cat.png`)).status).toBe(200);
    expect(lastBody(openaiFake).messages[0].content[1]).toEqual({
      type: 'image_url',
      image_url: { url: `${imageOrigin}/cat.png` },
    });
  } finally {
    await gw.admin('PATCH', '/settings', { image_fetch_allow_private: false });
  }
});

test('usage is billed from what the upstream reported, whatever the client family', async () => {
  await anthropic.messages.create({
    model: 'gemini-2.5-pro',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
  });
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
  const [log] = (await gw.admin('GET', '/logs?limit=1')).body.data;
  expect(log).toMatchObject({
    model: 'gemini-2.5-pro',
    endpoint: 'messages',
    prompt_tokens: 20,
    cached_tokens: 8,
    completion_tokens: 12,
    reasoning_tokens: 5,
    status_code: 200,
  });
  // (12 uncached + 8 cached) * $1 + 12 * $2 per million
  expect(log.cost).toBe(0.000044);
});

test('an Anthropic client calling an Anthropic model passes through: query, beta header, unknown fields, signatures', async () => {
  const response = await fetch(`${gw.origin}/v1/messages?beta=true`, {
    method: 'POST',
    headers: {
      'x-api-key': apiKey,
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'interleaved-thinking-2025-05-14,context-management-2025-06-27',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      model: 'claude-sonnet-4',
      max_tokens: 32000,
      thinking: { type: 'enabled', budget_tokens: 4000 },
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      metadata: { user_id: 'session-1' },
      system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  expect(response.status).toBe(200);
  const reply = (await response.json()) as Json;
  const sent = anthropicFake.requests.at(-1)!;
  expect(sent.url).toBe('/v1/messages?beta=true');
  expect(sent.headers['anthropic-beta']).toBe(
    'interleaved-thinking-2025-05-14,context-management-2025-06-27',
  );
  expect(sent.headers['anthropic-version']).toBe('2023-06-01');
  expect(sent.headers['x-api-key']).toBe(KEY);
  expect(sent.body).toMatchObject({
    context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
    metadata: { user_id: 'session-1' },
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
  });
  const thinking = reply.content.find((block: Json) => block.type === 'thinking');
  expect(thinking.signature).toBe(signThinking('Let me think about that.'));
});

test('tool round trips: a tool result goes back in each upstream’s own form, paired with its call', async () => {
  await openai.chat.completions.create({
    model: 'claude-sonnet-4',
    messages: [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '18C' },
      { role: 'tool', tool_call_id: 'call_b', content: '24C' },
    ],
    tools: [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ],
  });
  const claude = lastBody(anthropicFake).messages;
  expect(claude[1]).toEqual({
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Rome' } },
    ],
  });
  expect(claude[2].role).toBe('user');
  expect(claude[2].content).toMatchObject([
    { type: 'tool_result', tool_use_id: 'call_a' },
    { type: 'tool_result', tool_use_id: 'call_b' },
  ]);
  expect(JSON.stringify(claude[2].content)).toContain('18C');

  await anthropic.messages.create({
    model: 'gemini-2.5-pro',
    max_tokens: 100,
    tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' }] },
    ],
  });
  const gemini = lastBody(geminiFake).contents;
  expect(gemini[1]).toMatchObject({
    role: 'model',
    parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
  });
  expect(gemini[2].role).toBe('user');
  expect(gemini[2].parts[0].functionResponse.name).toBe('get_weather');
  expect(JSON.stringify(gemini[2].parts[0].functionResponse.response)).toContain('18C');
});
