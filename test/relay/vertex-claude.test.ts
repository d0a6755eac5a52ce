import type Anthropic from '@anthropic-ai/sdk';
import type { GenerateContentResponse } from '@google/genai';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signThinking } from '../fakes/anthropic-messages-reply.js';
import { send } from '../helpers/client-request.js';
import {
  ANTHROPIC_KEY,
  CLAUDE_COST,
  CLAUDE_UPSTREAM,
  expectVertexRequest,
  startVertexFixture,
  VERTEX_TEXT,
  vertexPath,
  type VertexFixture,
} from './vertex-fixture.js';

/** A Claude model on a `vertex` channel: rawPredict with the Anthropic body, driven by the official SDKs. */

let fx: VertexFixture;
beforeAll(async () => {
  fx = await startVertexFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const model = 'vx-claude';
const rawPredict = vertexPath('anthropic', CLAUDE_UPSTREAM, 'rawPredict');
const streamRawPredict = vertexPath('anthropic', CLAUDE_UPSTREAM, 'streamRawPredict');
const expectRequest = (url: string) => expectVertexRequest(fx.vertex, fx.vertex.requests[0], { url });
const sent = () => fx.vertex.requests[0];
const thinking = 'Let me think about that.';
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Hello?' }];
const BETA = 'interleaved-thinking-2025-05-14';

async function expectBilled(expected: { endpoint: string; stream: boolean }) {
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    ...expected,
    model,
    channel_id: fx.channels.vertex,
    status_code: 200,
    prompt_tokens: 20,
    completion_tokens: 12,
    cached_tokens: 8,
    cache_write_tokens: 4,
    error: null,
  });
  expect(log?.cost).toBeCloseTo(CLAUDE_COST, 12);
}

describe('@anthropic-ai/sdk messages, same protocol', () => {
  const params = {
    model,
    max_tokens: 2048,
    thinking: { type: 'enabled' as const, budget_tokens: 1024 },
    messages,
  };

  it('JSON: rawPredict, Vertex body, the beta header on, the thinking signature intact, billed', async () => {
    const message = await fx.anthropic.beta.messages.create({ ...params, betas: [BETA] });
    expectRequest(rawPredict);
    expect(sent()?.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages,
    });
    expect(sent()?.headers['anthropic-beta']).toBe(BETA);
    expect(sent()?.headers['anthropic-version']).toBeUndefined();
    expect(message.id).toMatch(/^msg_vrtx_/);
    expect(message.content).toEqual([
      { type: 'thinking', thinking, signature: signThinking(thinking) },
      { type: 'text', text: VERTEX_TEXT, citations: null },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 8,
      cache_read_input_tokens: 8,
      cache_creation_input_tokens: 4,
      output_tokens: 12,
    });
    await expectBilled({ endpoint: 'messages', stream: false });
  });

  it('stream: streamRawPredict, every event passed on, vertex_event included, billed', async () => {
    const stream = await fx.anthropic.messages.create(
      { ...params, stream: true },
      { headers: { 'anthropic-beta': BETA } },
    );
    const events: Anthropic.RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expectRequest(streamRawPredict);
    expect(sent()?.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages,
      stream: true,
    });
    expect(sent()?.headers['anthropic-beta']).toBe(BETA);
    // Vertex's own event type, unknown to the SDK's types, forwarded as it came.
    expect(events.slice(0, 2).map((event) => String(event.type))).toEqual(['message_start', 'vertex_event']);
    const signatures = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'signature_delta'
        ? [event.delta.signature]
        : [],
    );
    expect(signatures).toEqual([signThinking(thinking)]);
    expect(events.at(-1)?.type).toBe('message_stop');
    await expectBilled({ endpoint: 'messages', stream: true });
  });

  it('stream through the helper: thinking and text whole', async () => {
    const message = await fx.anthropic.messages.stream(params).finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking, signature: signThinking(thinking) },
      { type: 'text', text: VERTEX_TEXT, citations: null },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expectRequest(streamRawPredict);
  });
});

describe('openai chat completions, converted to rawPredict', () => {
  const chatMessages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello?' }];

  it('JSON', async () => {
    const completion = await fx.openai.chat.completions.create({ model, messages: chatMessages });
    expect(completion.choices[0]?.message.content).toBe(VERTEX_TEXT);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    expectRequest(rawPredict);
    expect(sent()?.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    expect(sent()?.headers['anthropic-version']).toBeUndefined();
    await expectBilled({ endpoint: 'chat-completions', stream: false });
  });

  it('stream: the vertex_event does not break the conversion', async () => {
    const stream = await fx.openai.chat.completions.create({
      model,
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(VERTEX_TEXT);
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    expectRequest(streamRawPredict);
    expect(sent()?.body).toMatchObject({ stream: true, anthropic_version: 'vertex-2023-10-16' });
    await expectBilled({ endpoint: 'chat-completions', stream: true });
  });
});

describe('@google/genai, converted to rawPredict', () => {
  it('generateContent', async () => {
    const reply = await fx.google.models.generateContent({ model, contents: 'Hello?' });
    expect(reply.text).toBe(VERTEX_TEXT);
    expect(reply.usageMetadata).toMatchObject({ promptTokenCount: 20, candidatesTokenCount: 12 });
    expectRequest(rawPredict);
    expect(sent()?.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    await expectBilled({ endpoint: 'generate-content', stream: false });
  });

  it('generateContentStream', async () => {
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await fx.google.models.generateContentStream({ model, contents: 'Hello?' }))
      chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe(VERTEX_TEXT);
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expectRequest(streamRawPredict);
    await expectBilled({ endpoint: 'stream-generate-content', stream: true });
  });
});

describe('a client query string', () => {
  it('`?beta=true` (sent by Claude Code) stays off the Vertex URL, where it is no parameter', async () => {
    const response = await send(fx.gw.origin, '/v1/messages?beta=true', {
      method: 'POST',
      headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETA },
      body: { model, max_tokens: 64, messages },
    });
    expect(response.status).toBe(200);
    expectRequest(rawPredict);
    expect(sent()?.headers['anthropic-beta']).toBe(BETA);
  });
});

describe('upstream errors', () => {
  const quota = 'Quota exceeded for aiplatform.googleapis.com.';
  it.each([
    { path: '/v1/messages', body: { model, max_tokens: 64, messages } },
    { path: '/v1/chat/completions', body: { model: 'vx-gemini', messages } },
  ])('a 429 with Retry-After reaches a $path client as Vertex sent it', async ({ path, body }) => {
    fx.vertex.script({ type: 'error', status: 429, message: quota, retryAfter: 7 });
    try {
      const response = await send(fx.gw.origin, path, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.key}`, 'anthropic-version': '2023-06-01' },
        body,
      });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('7');
      expect(response.body).toEqual({ error: { code: 429, message: quota, status: 'RESOURCE_EXHAUSTED' } });
      expect(fx.vertex.requests).toHaveLength(1);
      const [log] = await fx.logs();
      expect(log).toMatchObject({ model: body.model, status_code: 429, cost: 0 });
    } finally {
      await fx.resetHealth(fx.channels.vertex);
    }
  });
});

describe('failover between a vertex channel and a direct anthropic one', () => {
  const ask = () => fx.anthropic.messages.create({ model: 'shared-claude', max_tokens: 64, messages });

  it('a failing Vertex channel hands over to anthropic, and anthropic back to Vertex', async () => {
    fx.vertex.script({ type: 'error', status: 503 });
    const handedOver = await ask();
    expect(handedOver.content).toMatchObject([{ type: 'text', text: 'Hello from fake Anthropic.' }]);
    expectRequest(rawPredict);
    expect(fx.directAnthropic.requests).toHaveLength(1);
    const [direct] = fx.directAnthropic.requests;
    expect(direct).toMatchObject({
      path: '/v1/messages',
      headers: { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': expect.any(String) as unknown },
      body: { model: 'claude-sonnet-4-5-20250929', max_tokens: 64, messages },
    });
    expect(direct?.body).not.toHaveProperty('anthropic_version');
    expect(direct?.headers.authorization).toBeUndefined();
    const [log] = await fx.logs();
    expect(log).toMatchObject({
      model: 'shared-claude',
      channel_id: fx.channels.anthropic,
      status_code: 200,
    });

    await fx.resetHealth(fx.channels.shared);
    await fx.gw.admin('PATCH', `/channels/${fx.channels.shared}`, { priority: -1 });
    try {
      fx.clear();
      fx.directAnthropic.script({ type: 'error', status: 529 });
      const back = await ask();
      expect(back.content).toMatchObject([{ type: 'text', text: VERTEX_TEXT }]);
      expect(fx.directAnthropic.requests).toHaveLength(1);
      expect(fx.vertex.requests).toHaveLength(1);
      expectRequest(rawPredict);
      expect(sent()?.body).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 64, messages });
      const [latest] = await fx.logs();
      expect(latest).toMatchObject({
        model: 'shared-claude',
        channel_id: fx.channels.shared,
        status_code: 200,
      });
    } finally {
      await fx.gw.admin('PATCH', `/channels/${fx.channels.shared}`, { priority: 10 });
      await fx.resetHealth(fx.channels.anthropic);
    }
  });
});
