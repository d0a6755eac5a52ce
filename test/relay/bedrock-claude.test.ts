import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signThinking } from '../fakes/anthropic-messages-reply.js';
import { FAKE_AWS_CREDENTIAL, FAKE_BEDROCK_API_KEY } from '../fakes/fake-bedrock.js';
import { PNG_BASE64 } from '../golden/matrix-clients.js';
import { send } from '../helpers/client-request.js';
import {
  bedrockPath,
  CLAUDE_ARN,
  CLAUDE_ID,
  expectBilled,
  expectSignedRequest,
  startBedrockFixture,
  TEMPORARY_CREDENTIAL,
  type BedrockFixture,
} from './bedrock-fixture.js';

/**
 * Claude on `bedrock` channels (admin-api section 5), driven by the official SDKs: Messages clients
 * reach InvokeModel with their own body (same protocol), the other families are converted to it.
 */

let fx: BedrockFixture;
beforeAll(async () => {
  fx = await startBedrockFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const bedrockText = 'Hello from fake Bedrock.';
const thinkingText = 'Let me think about that.';
const invoke = bedrockPath(CLAUDE_ID, 'invoke');
const invokeStream = bedrockPath(CLAUDE_ID, 'invoke-with-response-stream');
const keyPair = { accessKeyId: FAKE_AWS_CREDENTIAL.accessKeyId };
const weather: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather by city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const betas = 'interleaved-thinking-2025-05-14, context-1m-2025-08-07';

/** A body with what a same-protocol call must keep: cache markers, a signed thinking turn, unknown fields. */
function replayBody(): Anthropic.MessageCreateParamsNonStreaming {
  const body = {
    model: 'claude-bedrock',
    max_tokens: 2048,
    system: [{ type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    tools: [weather],
    messages: [
      {
        role: 'user',
        content: [{ type: 'text', text: 'Weather in Paris?', cache_control: { type: 'ephemeral' } }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: thinkingText, signature: signThinking(thinkingText) },
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18 C' }] },
    ],
    metadata: { user_id: 'user-42' },
    /** Not in the SDK's types: a field the gateway does not know travels as is. */
    future_option: { level: 3, flags: ['a', 'b'] },
  };
  return body as Anthropic.MessageCreateParamsNonStreaming;
}

/** The body InvokeModel must get for it: no model, no stream, the version and betas in the body. */
function invokeBodyOf(body: Record<string, unknown>): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = body;
  return {
    ...rest,
    anthropic_version: 'bedrock-2023-05-31',
    anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'],
  };
}

describe('anthropic messages, same protocol through InvokeModel', () => {
  it('JSON: exactly the client body (signed thinking, cache_control, unknown fields), the reply as Bedrock sent it', async () => {
    const body = replayBody();
    const message = await fx.anthropic.messages.create(body, { headers: { 'anthropic-beta': betas } });

    expect(fx.bedrock.requests).toHaveLength(1);
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: invoke, ...keyPair });
    expect(received?.body).toEqual(invokeBodyOf({ ...body }));
    expect(received?.headers['content-type']).toBe('application/json');
    expect(message.model).toBe(CLAUDE_ID);
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(message.content[0]).toEqual({
      type: 'thinking',
      thinking: thinkingText,
      signature: signThinking(thinkingText),
    });
    expect(message.usage).toMatchObject({
      input_tokens: 8,
      cache_read_input_tokens: 8,
      cache_creation_input_tokens: 4,
      output_tokens: 12,
    });
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'messages', stream: false });
  });

  it('stream: the event stream becomes the Anthropic SSE stream, usage included', async () => {
    const body = { ...replayBody(), stream: true };
    const response = await fetch(`${fx.gw.origin}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': fx.key,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': betas,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter(Boolean);
    for (const event of events) expect(event).toMatch(/^event: [a-z_]+\ndata: \{.*\}$/s);
    const types = events.map((event) => /^event: (\S+)/.exec(event)?.[1]);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(types.filter((type) => type === 'content_block_start')).toHaveLength(3);
    const data = events.map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 6)));
    expect(data[0].message.usage).toMatchObject({ input_tokens: 8, cache_read_input_tokens: 8 });
    expect(data.find((event) => event.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 12 },
    });
    const signature = data.find((event) => event.delta?.type === 'signature_delta');
    expect(signature?.delta.signature).toBe(signThinking(thinkingText));

    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: invokeStream, ...keyPair });
    expect(received?.body).toEqual(invokeBodyOf(body));
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'messages', stream: true });
  });

  it('stream with the SDK: thinking, text and the tool call, then the tool round trip', async () => {
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude-bedrock',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weather],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    };
    const first = await fx.anthropic.messages.stream(request).finalMessage();
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(first.stop_reason).toBe('tool_use');
    expect(first.usage.output_tokens).toBe(12);
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ name: 'get_weather', input: { query: 'weather in Paris' } });

    const second = await fx.anthropic.messages.create({
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id ?? '', content: '18 C' }] },
      ],
    });
    expect(second.content.find((block) => block.type === 'text')).toMatchObject({ text: bedrockText });
    // The fake checks the thinking signature it issued: it came back intact.
    expect(fx.bedrock.requests.map((received) => received.refused)).toEqual([undefined, undefined]);
    expect(fx.bedrock.requests[1]?.body).toMatchObject({ messages: [{}, { content: first.content }, {}] });
  });

  it('beta messages: the betas travel in the body, the `?beta=true` marker stays home', async () => {
    await fx.anthropic.beta.messages.create({
      model: 'claude-bedrock',
      max_tokens: 64,
      betas: ['context-1m-2025-08-07'],
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    // Older SDKs and Claude Code mark beta calls with `?beta=true`; Bedrock's path takes no query.
    const marked = await send(fx.gw.origin, '/v1/messages?beta=true', {
      method: 'POST',
      headers: {
        'x-api-key': fx.key,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'context-1m-2025-08-07',
      },
      body: { model: 'claude-bedrock', max_tokens: 64, messages: [{ role: 'user', content: 'Hello?' }] },
    });
    expect(marked.status).toBe(200);
    expect(fx.bedrock.requests).toHaveLength(2);
    for (const received of fx.bedrock.requests) {
      expectSignedRequest(received, { path: invoke, ...keyPair });
      expect(received.body).toMatchObject({ anthropic_beta: ['context-1m-2025-08-07'] });
    }
  });

  it('an image block passes through as the client sent it', async () => {
    const image: Anthropic.ImageBlockParam = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
    };
    const message = await fx.anthropic.messages.create({
      model: 'claude-bedrock',
      max_tokens: 64,
      messages: [{ role: 'user', content: [image, { type: 'text', text: 'What is this?' }] }],
    });
    expect(message.content).toMatchObject([{ type: 'text', text: bedrockText }]);
    expect(fx.bedrock.requests[0]?.body).toMatchObject({ messages: [{ content: [image, {}] }] });
  });

  it('an inference-profile ARN, temporary credentials: the ARN encoded as one path segment, the session token signed', async () => {
    const stream = fx.anthropic.messages.stream({
      model: 'claude-arn',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: bedrockText }]);
    const [received] = fx.bedrock.requests;
    expect(received?.path).toBe(
      '/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fus.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
    );
    expectSignedRequest(received, {
      path: bedrockPath(CLAUDE_ARN, 'invoke-with-response-stream'),
      accessKeyId: TEMPORARY_CREDENTIAL.accessKeyId,
      sessionToken: TEMPORARY_CREDENTIAL.sessionToken,
    });
    await expectBilled(fx, {
      model: 'claude-arn',
      endpoint: 'messages',
      stream: true,
      channel: fx.channels.session,
    });
  });

  it('a Bedrock API key channel: `Authorization: Bearer`, nothing signed', async () => {
    const message = await fx.anthropic.messages.create({
      model: 'claude-api-key',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    expect(message.content).toMatchObject([{ type: 'text', text: bedrockText }]);
    const [received] = fx.bedrock.requests;
    expect(received?.url).toBe(invoke);
    expect(received?.headers.authorization).toBe(`Bearer ${FAKE_BEDROCK_API_KEY}`);
    expect(received?.headers['x-amz-date']).toBeUndefined();
    expect(received?.headers['x-amz-security-token']).toBeUndefined();
    await expectBilled(fx, {
      model: 'claude-api-key',
      endpoint: 'messages',
      stream: false,
      channel: fx.channels.apiKey,
    });
  });
});
