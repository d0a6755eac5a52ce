import AnthropicBedrock from '@anthropic-ai/bedrock-sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  type BedrockRuntimeClientConfig,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { FAKE_AWS_CREDENTIAL, FAKE_BEDROCK_API_KEY, startFakeBedrock } from '../fakes/fake-bedrock.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

const region = 'us-east-1';
const temporary = {
  accessKeyId: 'ASIAFAKETEMPORARY001',
  secretAccessKey: 'temporary/secret',
  sessionToken: 'FQoGZXIvYXdzEFAKE//token==',
};
const profileArn =
  'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0';
const weather = { name: 'get_weather', description: 'Weather by city' };
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const claudeBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    anthropic_version: 'bedrock-2023-05-31',
    max_tokens: 200,
    messages: [{ role: 'user', content: 'Hi' }],
    ...extra,
  });

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeBedrock({ credentials: [FAKE_AWS_CREDENTIAL, temporary] });
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

/**
 * The client's default handler speaks HTTP/2 (for bidirectional streams), which a plain-text
 * local server cannot; HTTP/1.1 is what the gateway's undici speaks to Bedrock too.
 */
function awsClient(config: Partial<BedrockRuntimeClientConfig> = {}): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    endpoint: fake.origin,
    region,
    credentials: FAKE_AWS_CREDENTIAL,
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(),
    ...config,
  });
}

const decoder = new TextDecoder();

describe('the fake takes what @aws-sdk/client-bedrock-runtime sends', () => {
  test('Converse: system, inference settings, a tool round trip, usage', async () => {
    const reply = await awsClient().send(
      new ConverseCommand({
        modelId: 'amazon.nova-pro-v1:0',
        system: [{ text: 'Be terse.' }, { cachePoint: { type: 'default' } }],
        inferenceConfig: { maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
        toolConfig: {
          tools: [{ toolSpec: { ...weather, inputSchema: { json: weatherSchema } } }],
          toolChoice: { auto: {} },
        },
        messages: [
          { role: 'user', content: [{ text: 'Weather in Paris?' }] },
          {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'tooluse_a', name: 'get_weather', input: { city: 'Paris' } } }],
          },
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 'tooluse_a', content: [{ json: { celsius: 18 } }] } },
              { text: 'And now?' },
            ],
          },
        ],
      }),
    );
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.output?.message?.content?.[0]).toEqual({ text: 'Hello from fake Bedrock.' });
    expect(reply.output?.message?.content?.[1]?.toolUse).toMatchObject({
      name: 'get_weather',
      input: { query: 'weather in Paris' },
    });
    expect(reply.usage).toEqual({
      inputTokens: 8,
      outputTokens: 12,
      totalTokens: 32,
      cacheReadInputTokens: 8,
      cacheWriteInputTokens: 4,
    });
    expect(fake.requests[0]?.url).toBe('/model/amazon.nova-pro-v1%3A0/converse');
  });

  test('ConverseStream: reasoning, text and metadata events, with Bedrock padding ignored', async () => {
    const reply = await awsClient().send(
      new ConverseStreamCommand({
        modelId: 'anthropic.claude-sonnet-4-20250514-v1:0',
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
        messages: [{ role: 'user', content: [{ text: 'Think, then answer.' }] }],
      }),
    );
    let text = '';
    let reasoning = '';
    const kinds: string[] = [];
    for await (const event of reply.stream ?? []) {
      kinds.push(Object.keys(event).find((key) => key !== '$unknown') ?? '?');
      text += event.contentBlockDelta?.delta?.text ?? '';
      reasoning += event.contentBlockDelta?.delta?.reasoningContent?.text ?? '';
      if (event.metadata) expect(event.metadata.usage).toMatchObject({ inputTokens: 8, outputTokens: 12 });
    }
    expect({ text, reasoning }).toEqual({
      text: 'Hello from fake Bedrock.',
      reasoning: 'Let me think about that.',
    });
    expect(kinds[0]).toBe('messageStart');
    expect(kinds.slice(-2)).toEqual(['messageStop', 'metadata']);
  });

  test('InvokeModel of a Claude inference-profile ARN: the ARN is URL-encoded in the path', async () => {
    const reply = await awsClient().send(
      new InvokeModelCommand({
        modelId: profileArn,
        body: claudeBody({ anthropic_beta: ['context-1m-2025-08-07'] }),
        contentType: 'application/json',
      }),
    );
    const message = JSON.parse(decoder.decode(reply.body)) as { type: string; content: { text?: string }[] };
    expect(message).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'Hello from fake Bedrock.' }],
    });
    expect(fake.requests[0]?.url).toBe(
      '/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke',
    );
  });

  test('InvokeModelWithResponseStream: chunks of base64 Anthropic events, metrics on message_stop', async () => {
    const reply = await awsClient({ credentials: temporary }).send(
      new InvokeModelWithResponseStreamCommand({ modelId: profileArn, body: claudeBody() }),
    );
    const events: { type: string }[] = [];
    for await (const part of reply.body ?? [])
      if (part.chunk?.bytes) events.push(JSON.parse(decoder.decode(part.chunk.bytes)));
    expect(events[0]?.type).toBe('message_start');
    expect(events.at(-1)).toMatchObject({
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': { inputTokenCount: 20 },
    });
    expect(fake.requests[0]?.headers['x-amz-security-token']).toBe(temporary.sessionToken);
  });

  test('a Bedrock API key as the bearer token', async () => {
    const client = awsClient({
      credentials: undefined,
      token: { token: FAKE_BEDROCK_API_KEY },
      authSchemePreference: ['httpBearerAuth'],
    });
    const reply = await client.send(
      new ConverseCommand({
        modelId: 'amazon.nova-lite-v1:0',
        messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      }),
    );
    expect(reply.output?.message?.content?.[0]?.text).toBe('Hello from fake Bedrock.');
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${FAKE_BEDROCK_API_KEY}`);
  });
});

describe('the fake refuses what Bedrock refuses, as the SDK expects it', () => {
  const hello = new ConverseCommand({
    modelId: 'amazon.nova-lite-v1:0',
    messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('the request was taken'),
      (error: { name: string; message: string; $metadata?: { httpStatusCode?: number } }) => ({
        name: error.name,
        status: error.$metadata?.httpStatusCode,
        message: error.message,
      }),
    );

  test('a wrong secret, an unknown key, a wrong session token, a wrong region', async () => {
    const wrongSecret = awsClient({
      credentials: { ...FAKE_AWS_CREDENTIAL, secretAccessKey: 'not-the-secret' },
    });
    expect(await refusal(wrongSecret.send(hello))).toEqual({
      name: 'InvalidSignatureException',
      status: 403,
      message: expect.stringMatching(/^The request signature we calculated does not match/),
    });
    const unknown = awsClient({ credentials: { accessKeyId: 'AKIAUNKNOWNKEY000000', secretAccessKey: 'x' } });
    expect(await refusal(unknown.send(hello))).toMatchObject({
      name: 'UnrecognizedClientException',
      status: 403,
    });
    const wrongToken = awsClient({ credentials: { ...temporary, sessionToken: 'stale' } });
    expect(await refusal(wrongToken.send(hello))).toMatchObject({ name: 'UnrecognizedClientException' });
    const elsewhere = awsClient({ region: 'eu-west-3' });
    expect(await refusal(elsewhere.send(hello))).toMatchObject({
      name: 'InvalidSignatureException',
      message: 'Credential should be scoped to a valid region. ',
    });
  });

  test('invalid bodies: an assistant first, a tool result without its tool use, `model` in an invoke body', async () => {
    const assistantFirst = new ConverseCommand({
      modelId: 'amazon.nova-lite-v1:0',
      messages: [{ role: 'assistant', content: [{ text: 'Hi' }] }],
    });
    expect(await refusal(awsClient().send(assistantFirst))).toMatchObject({
      name: 'ValidationException',
      status: 400,
      message: expect.stringMatching(/^A conversation must start with a user message/),
    });
    const orphan = new ConverseCommand({
      modelId: 'amazon.nova-lite-v1:0',
      toolConfig: { tools: [{ toolSpec: { ...weather, inputSchema: { json: weatherSchema } } }] },
      messages: [
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_x', content: [{ text: '18C' }] } }] },
      ],
    });
    expect(await refusal(awsClient().send(orphan))).toMatchObject({
      message:
        'The number of toolResult blocks at messages.0.content exceeds the number of toolUse blocks of previous turn.',
    });
    const withModel = new InvokeModelCommand({ modelId: profileArn, body: claudeBody({ model: 'claude' }) });
    expect(await refusal(awsClient().send(withModel))).toMatchObject({
      name: 'ValidationException',
      message:
        'Malformed input request: #: extraneous key [model] is not permitted, please reformat your input and try again.',
    });
  });

  test('a scripted 429 is a ThrottlingException; an exception mid-stream is thrown by the stream', async () => {
    fake.script({
      type: 'error',
      status: 429,
      message: 'Too many requests, please wait before trying again.',
      retryAfter: 2,
    });
    expect(await refusal(awsClient().send(hello))).toEqual({
      name: 'ThrottlingException',
      status: 429,
      message: 'Too many requests, please wait before trying again.',
    });
    fake.script({ type: 'error-mid-stream', afterChunks: 3, message: 'The model stream broke.' });
    const reply = await awsClient().send(
      new ConverseStreamCommand({
        modelId: 'amazon.nova-lite-v1:0',
        messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      }),
    );
    const consume = async () => {
      for await (const event of reply.stream ?? []) expect(event).toBeDefined();
    };
    expect(await refusal(consume())).toMatchObject({
      name: 'ModelStreamErrorException',
      message: 'The model stream broke.',
    });
  });
});

describe('the fake takes what @anthropic-ai/bedrock-sdk sends', () => {
  const common = () => ({ awsRegion: region, baseURL: fake.origin, maxRetries: 0 });
  const sigv4Client = (awsSecretKey = FAKE_AWS_CREDENTIAL.secretAccessKey) =>
    new AnthropicBedrock({
      ...common(),
      apiKey: null,
      awsAccessKey: FAKE_AWS_CREDENTIAL.accessKeyId,
      awsSecretKey,
    });

  test('messages.create with an inference-profile ARN (the SDK leaves `:` unencoded)', async () => {
    const message = await sigv4Client().messages.create({
      model: profileArn,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hello from fake Bedrock.' }]);
    expect(fake.requests[0]?.path).toBe(
      '/model/arn:aws:bedrock:us-east-1:123456789012:inference-profile%2Fus.anthropic.claude-sonnet-4-20250514-v1:0/invoke',
    );
    expect(fake.requests[0]?.body).toMatchObject({ anthropic_version: expect.any(String), max_tokens: 100 });
  });

  test('messages.stream with thinking and a tool, and with a Bedrock API key', async () => {
    const stream = new AnthropicBedrock({ ...common(), apiKey: FAKE_BEDROCK_API_KEY }).messages.stream({
      model: 'anthropic.claude-sonnet-4-20250514-v1:0',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [{ ...weather, input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(final.stop_reason).toBe('tool_use');
    expect(fake.requests[0]?.path).toBe(
      '/model/anthropic.claude-sonnet-4-20250514-v1:0/invoke-with-response-stream',
    );
  });

  test('a wrong secret is refused; an exception mid-stream surfaces as the SDK error', async () => {
    const wrong = sigv4Client('not-the-secret');
    const refused = await wrong.messages
      .create({ model: profileArn, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AnthropicBedrock.PermissionDeniedError);
    fake.script({ type: 'error-mid-stream', afterChunks: 2, message: 'The model stream broke.' });
    const stream = sigv4Client().messages.stream({
      model: profileArn,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/The model stream broke/);
  });
});
