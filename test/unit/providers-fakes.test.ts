import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

// The official SDKs parse every reply and stream event of the fakes: the shapes are real.
const apiKey = 'sk-fake-upstream';

describe('fake OpenAI through the openai SDK', () => {
  let fake: FakeUpstream;
  let client: OpenAI;
  const weatherTool = {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
  };
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey });
    client = new OpenAI({ apiKey, baseURL: `${fake.origin}/v1`, maxRetries: 0 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.clear());

  it('chat completion JSON with cached and reasoning tokens', async () => {
    const reply = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(reply.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
    expect(reply.choices[0]?.finish_reason).toBe('stop');
    expect(reply.usage).toMatchObject({
      prompt_tokens: 20,
      completion_tokens: 12,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}` },
      body: { model: 'gpt-test' },
    });
  });

  it('chat completion stream ends with a usage-only chunk and [DONE]', async () => {
    const stream = client.chat.completions.stream({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 20, completion_tokens: 12 } });
    expect(chunks.length).toBeGreaterThan(3);
  });

  it('chat completion stream without include_usage has no usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const chunk of stream) expect(chunk.usage).toBeUndefined();
  });

  it('chat tool calls, JSON and stream', async () => {
    const request = {
      model: 'gpt-test',
      messages: [{ role: 'user' as const, content: 'weather?' }],
      tools: [weatherTool],
    };
    const reply = await client.chat.completions.create(request);
    expect(reply.choices[0]?.finish_reason).toBe('tool_calls');
    expect(reply.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"query":"weather in Paris"}' },
    });
    const stream = client.chat.completions.stream(request);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'get_weather', arguments: '{"query":"weather in Paris"}' },
    });
  });

  it('responses JSON and stream with reasoning summary', async () => {
    const reply = await client.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(reply.output_text).toBe('Hello from fake OpenAI.');
    expect(reply.usage).toMatchObject({
      input_tokens_details: { cached_tokens: 8 },
      output_tokens_details: { reasoning_tokens: 5 },
    });

    const stream = client.responses.stream({
      model: 'gpt-test',
      input: 'hi',
      reasoning: { effort: 'low', summary: 'auto' },
    });
    const types: string[] = [];
    const sequence: number[] = [];
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
    }
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Hello from fake OpenAI.');
    expect(final.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ text: 'Let me think about that.' }],
    });
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.completed');
    expect(sequence).toEqual(sequence.map((_, index) => index));
  });

  it('responses function call stream', async () => {
    const stream = client.responses.stream({
      model: 'gpt-test',
      input: 'weather?',
      tools: [{ type: 'function', name: 'get_weather', parameters: null, strict: false }],
    });
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      arguments: '{"query":"weather in Paris"}',
    });
  });

  it('errors come back in the OpenAI shape', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${fake.origin}/v1`, maxRetries: 0 });
    const denied = wrong.chat.completions.create({ model: 'm', messages: [] });
    await expect(denied).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(denied).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });

    fake.script({ type: 'error', status: 429, message: 'Slow down', retryAfter: 7 });
    const limited = await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = limited as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.message).toContain('Slow down');
    expect(rateLimit.headers?.get('retry-after')).toBe('7');
  });
});

describe('fake Anthropic through the @anthropic-ai/sdk', () => {
  let fake: FakeUpstream;
  let client: Anthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic({ apiKey });
    client = new Anthropic({ apiKey, baseURL: fake.origin, maxRetries: 0 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.clear());

  it('message JSON with cache usage', async () => {
    const message = await client.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from fake Anthropic.', citations: null }]);
    expect(message.usage).toMatchObject({
      input_tokens: 8,
      cache_read_input_tokens: 8,
      cache_creation_input_tokens: 4,
      output_tokens: 12,
    });
    expect(fake.requests[0]?.headers).toMatchObject({ authorization: `Bearer ${apiKey}` });
  });

  it('message stream with thinking, ping and tool use', async () => {
    const stream = client.messages.stream({
      model: 'claude-test',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'weather?' }],
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const message = await stream.finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(message.content[0]).toMatchObject({
      thinking: 'Let me think about that.',
      signature: expect.any(String),
    });
    expect(message.content[2]).toMatchObject({ name: 'get_weather', input: { query: 'weather in Paris' } });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ output_tokens: 12, cache_read_input_tokens: 8 });
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(types).toContain('message_delta');
    const raw = await fetch(`${fake.origin}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-test',
        max_tokens: 5,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(await raw.text()).toContain('event: ping\ndata: {"type":"ping"}\n\n');
  });

  it('errors come back in the Anthropic shape', async () => {
    const wrong = new Anthropic({ apiKey: 'sk-wrong', baseURL: fake.origin, maxRetries: 0 });
    const denied = wrong.messages.create({ model: 'm', max_tokens: 1, messages: [] });
    await expect(denied).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    await expect(denied).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'authentication_error' } },
    });

    fake.script({ type: 'error', status: 529, message: 'Overloaded' });
    await expect(client.messages.create({ model: 'm', max_tokens: 1, messages: [] })).rejects.toMatchObject({
      status: 529,
      error: { error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
  });
});

describe('fake Gemini through @google/genai', () => {
  let fake: FakeUpstream;
  let client: GoogleGenAI;
  beforeAll(async () => {
    fake = await startFakeGemini({ apiKey });
    client = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: fake.origin } });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.clear());

  it('generateContent with cached and thought tokens', async () => {
    const reply = await client.models.generateContent({ model: 'gemini-test', contents: 'hi' });
    expect(reply.text).toBe('Hello from fake Gemini.');
    expect(reply.usageMetadata).toMatchObject({
      promptTokenCount: 20,
      candidatesTokenCount: 7,
      thoughtsTokenCount: 5,
      cachedContentTokenCount: 8,
      totalTokenCount: 32,
    });
    expect(fake.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-test:generateContent',
      headers: { 'x-goog-api-key': apiKey },
    });
  });

  it('generateContentStream with thoughts', async () => {
    const stream = await client.models.generateContentStream({
      model: 'gemini-test',
      contents: 'hi',
      config: { thinkingConfig: { includeThoughts: true } },
    });
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.text ?? '';
    }
    expect(text).toBe('Hello from fake Gemini.');
    expect(chunks[0]?.candidates?.[0]?.content?.parts?.[0]).toMatchObject({ thought: true });
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata?.thoughtsTokenCount).toBe(5);
    expect(fake.requests[0]?.url).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
  });

  it('function calls', async () => {
    const reply = await client.models.generateContent({
      model: 'gemini-test',
      contents: 'weather?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather' }] }] },
    });
    expect(reply.functionCalls).toEqual([{ name: 'get_weather', args: { query: 'weather in Paris' } }]);
  });

  it('errors come back in the Gemini shape', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'wrong', httpOptions: { baseUrl: fake.origin } });
    await expect(
      wrong.models.generateContent({ model: 'gemini-test', contents: 'hi' }),
    ).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('UNAUTHENTICATED'),
    });
    fake.script({ type: 'error', status: 429, message: 'Resource has been exhausted' });
    await expect(
      client.models.generateContent({ model: 'gemini-test', contents: 'hi' }),
    ).rejects.toMatchObject({
      status: 429,
    });
  });
});
