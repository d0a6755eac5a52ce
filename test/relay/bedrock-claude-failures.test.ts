import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chunkFrame, exceptionFrame } from '../fakes/bedrock-event-stream.js';
import { FAKE_AWS_CREDENTIAL } from '../fakes/fake-bedrock.js';
import { SIGNATURE_MISMATCH } from '../fakes/verify-bedrock-signature.js';
import { send } from '../helpers/client-request.js';
import {
  bedrockPath,
  CLAUDE_ID,
  expectSignedRequest,
  startBedrockFixture,
  WRONG_SECRET,
  type BedrockFixture,
} from './bedrock-fixture.js';

/**
 * Claude on `bedrock` channels when things go wrong: refused credentials (admin-api section 7),
 * failover to a direct `anthropic` channel, Bedrock's errors passed through with their status, and
 * exceptions inside a stream ending the client's stream with its protocol's error event.
 */

let fx: BedrockFixture;
beforeAll(async () => {
  fx = await startBedrockFixture();
});
afterAll(() => fx?.close());
beforeEach(async () => {
  fx.clear();
  for (const id of Object.values(fx.channels)) await fx.resetHealth(id);
});

const hello = { max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello?' }] };
const messagesHeaders = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' });

async function keyStates(channelId: number): Promise<string[]> {
  const health = await fx.gw.admin('GET', `/channels/${channelId}/health`);
  return health.body.keys.map((key: { state: string }) => key.state);
}

describe('refused credentials', () => {
  it('a wrong secret beside a right one: the key is set aside, every request answered with the other', async () => {
    for (let round = 0; round < 3; round++) {
      const message = await fx.anthropic.messages.create({ model: 'claude-two-keys', ...hello });
      expect(message.content).toMatchObject([{ type: 'text', text: 'Hello from fake Bedrock.' }]);
    }
    // Three answers and one refusal: once refused, the wrong key is never sent again.
    expect(fx.bedrock.requests).toHaveLength(4);
    expect(await keyStates(fx.channels.twoKeys)).toEqual(['refused', 'active']);
    const channel = await fx.gw.admin('GET', `/channels/${fx.channels.twoKeys}`);
    expect(channel.body.status).toBe('enabled');
  });

  it('only a wrong secret: 403 as Bedrock sent it, the key set aside, nothing charged, no secret shown', async () => {
    const response = await send(fx.gw.origin, '/v1/messages', {
      method: 'POST',
      headers: messagesHeaders(fx.key),
      body: { model: 'claude-wrong', ...hello },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: SIGNATURE_MISMATCH });
    expect(response.text).not.toContain(WRONG_SECRET);
    expect(fx.bedrock.requests).toHaveLength(1);
    expectSignedRequest(fx.bedrock.requests[0], {
      path: bedrockPath(CLAUDE_ID, 'invoke'),
      accessKeyId: FAKE_AWS_CREDENTIAL.accessKeyId,
    });
    expect(await keyStates(fx.channels.wrong)).toEqual(['refused']);
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'claude-wrong', status_code: 403, cost: 0 });
    expect(JSON.stringify(log)).not.toContain(WRONG_SECRET);
  });

  it('the SDK raises a PermissionDeniedError', async () => {
    await expect(fx.anthropic.messages.create({ model: 'claude-wrong', ...hello })).rejects.toBeInstanceOf(
      Anthropic.PermissionDeniedError,
    );
  });
});

describe('failover to a direct anthropic channel', () => {
  it.each([
    { status: 500, exception: 'InternalServerException' },
    { status: 429, exception: 'ThrottlingException' },
    { status: 403, exception: 'AccessDeniedException' },
  ])('$exception ($status) on Bedrock: the direct channel answers', async ({ status }) => {
    fx.bedrock.script({ type: 'error', status, retryAfter: status === 429 ? 30 : undefined });
    const stream = fx.anthropic.messages.stream({ model: 'claude-shared', ...hello });
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hello from fake Anthropic.' }]);
    expect(fx.bedrock.requests).toHaveLength(1);
    expect(fx.anthropicUpstream.requests).toHaveLength(1);
    const [direct] = fx.anthropicUpstream.requests;
    expect(direct).toMatchObject({
      path: '/v1/messages',
      headers: { 'x-api-key': 'sk-ant-direct-key', 'anthropic-version': expect.any(String) },
      body: { model: 'claude-sonnet-4-5-20250929', stream: true, ...hello },
    });
    expect(direct?.body).not.toHaveProperty('anthropic_version');
    expect(direct?.headers.authorization).toBeUndefined();
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'claude-shared', channel_id: fx.channels.direct, status_code: 200 });
    if (status === 429) {
      const health = await fx.gw.admin('GET', `/channels/${fx.channels.shared}/health`);
      expect(health.body.data[0]).toMatchObject({ model: 'claude-shared', state: 'cooling_down' });
      expect(health.body.data[0].until).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 28);
    }
  });
});

describe("Bedrock's errors passed through", () => {
  it('ThrottlingException: 429 with its Retry-After, to every family', async () => {
    fx.bedrock.script({
      type: 'error',
      status: 429,
      message: 'Too many requests, please wait.',
      retryAfter: 7,
    });
    const response = await send(fx.gw.origin, '/v1/messages', {
      method: 'POST',
      headers: messagesHeaders(fx.key),
      body: { model: 'claude-bedrock', ...hello },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.body).toEqual({ message: 'Too many requests, please wait.' });
    expect(fx.bedrock.requests).toHaveLength(1);

    await fx.resetHealth(fx.channels.keyPair);
    fx.bedrock.script({ type: 'error', status: 429, retryAfter: 7 });
    await expect(
      fx.openai.chat.completions.create({ model: 'claude-bedrock', messages: hello.messages }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'claude-bedrock', status_code: 429, cost: 0 });
  });

  it('ValidationException: 400 with what Bedrock said (a forged thinking signature)', async () => {
    const response = await send(fx.gw.origin, '/v1/messages', {
      method: 'POST',
      headers: messagesHeaders(fx.key),
      body: {
        model: 'claude-bedrock',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Edited.', signature: 'Zm9yZ2Vk' },
              { type: 'text', text: 'Hello.' },
            ],
          },
          { role: 'user', content: 'And?' },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('Invalid `signature` in `thinking` block');
    expect(fx.bedrock.requests[0]?.refused?.code).toBe('ValidationException');
    const [log] = await fx.logs();
    expect(log).toMatchObject({ status_code: 400, cost: 0 });
  });
});

/** The start of a Claude stream, framed as InvokeModelWithResponseStream sends it, then an exception. */
function claudeStreamThen(exception: { type: string; message: string }): Uint8Array[] {
  const events = [
    {
      type: 'message_start',
      message: {
        id: 'msg_bdrk_01',
        type: 'message',
        role: 'assistant',
        model: CLAUDE_ID,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello ' } },
  ];
  return [
    ...events.map((event) => chunkFrame(JSON.stringify(event))),
    exceptionFrame(exception.type, { message: exception.message }),
  ];
}

const rawEvents = (text: string) => text.split('\n\n').filter(Boolean);

describe('an exception inside the stream', () => {
  it.each([
    { type: 'modelStreamErrorException', errorType: 'api_error' },
    { type: 'throttlingException', errorType: 'rate_limit_error' },
    { type: 'internalServerException', errorType: 'api_error' },
  ])('$type: the Messages stream ends with `event: error` ($errorType)', async ({ type, errorType }) => {
    const message = `Bedrock says ${type}`;
    fx.bedrock.script({ type: 'raw-stream', chunks: claudeStreamThen({ type, message }) });
    const response = await send(fx.gw.origin, '/v1/messages', {
      method: 'POST',
      headers: messagesHeaders(fx.key),
      body: { model: 'claude-bedrock', ...hello, stream: true },
    });
    expect(response.status).toBe(200);
    const events = rawEvents(response.text);
    expect(events.map((event) => /^event: (\S+)/.exec(event)?.[1])).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'error',
    ]);
    expect(JSON.parse(events[3]!.split('data: ')[1]!)).toEqual({
      type: 'error',
      error: { type: errorType, message },
    });
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'claude-bedrock', stream: true, status_code: 200, prompt_tokens: 20 });
    expect(log?.error).toContain(message);
    expect(log?.completion_tokens).toBeGreaterThan(0);
    expect(log?.cost).toBeGreaterThan(0);
  });

  it("the fake's own stream error: the Messages SDK gets the text, then raises Bedrock's message", async () => {
    // message_start, content_block_start, ping, the first text delta; then modelStreamErrorException.
    fx.bedrock.script({ type: 'error-mid-stream', afterChunks: 4, message: 'Model stream broke.' });
    let text = '';
    const stream = fx.anthropic.messages.stream({ model: 'claude-bedrock', ...hello });
    stream.on('text', (delta) => void (text += delta));
    await expect(stream.finalMessage()).rejects.toThrow('Model stream broke.');
    expect(text).toBe('Hello ');
  });

  it('a chat client: the SDK raises, no finish reason reached it', async () => {
    fx.bedrock.script({
      type: 'raw-stream',
      chunks: claudeStreamThen({ type: 'throttlingException', message: 'Slow down.' }),
    });
    let text = '';
    const finishes: string[] = [];
    const read = async () => {
      const stream = await fx.openai.chat.completions.create({
        model: 'claude-bedrock',
        messages: hello.messages,
        stream: true,
      });
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      }
    };
    await expect(read()).rejects.toThrow('Slow down.');
    expect(text).toBe('Hello ');
    expect(finishes).toEqual([]);
  });

  it('a stream cut inside a frame: the Messages stream ends with `event: error`, charged', async () => {
    fx.bedrock.script({ type: 'cut-mid-frame', afterChunks: 3 });
    const response = await send(fx.gw.origin, '/v1/messages', {
      method: 'POST',
      headers: messagesHeaders(fx.key),
      body: { model: 'claude-bedrock', ...hello, stream: true },
    });
    const events = rawEvents(response.text);
    expect(events.at(-1)).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"api_error"/);
    expect(events.filter((event) => event.startsWith('event: error'))).toHaveLength(1);
    expect(response.text).not.toContain('message_stop');
    const [log] = await fx.logs();
    expect(log?.error).toContain('the upstream stream broke off');
    expect(log?.cost).toBeGreaterThan(0);
  });
});
