import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { parseBedrockCredential } from '../../src/providers/bedrock/bedrock-credential.js';
import { signBedrockRequest } from '../../src/providers/bedrock/sign-bedrock-request.js';
import { FAKE_AWS_CREDENTIAL, startFakeBedrock } from '../fakes/fake-bedrock.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

// What the fake refuses beyond what the SDKs can be made to send: hand-signed requests and odd bodies.
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeBedrock();
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

const credential = parseBedrockCredential(
  `${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`,
);
const converse = (model = 'amazon.nova-lite-v1:0') =>
  `${fake.origin}/model/${encodeURIComponent(model)}/converse`;
const invoke = () =>
  `${fake.origin}/model/${encodeURIComponent('anthropic.claude-sonnet-4-20250514-v1:0')}/invoke`;

async function send(url: string, body: unknown, headers?: Record<string, string>) {
  const text = JSON.stringify(body);
  const sent =
    headers ??
    (await signBedrockRequest({
      url,
      headers: { 'content-type': 'application/json' },
      body: text,
      credential,
      region: 'us-east-1',
    }));
  const response = await request(url, { method: 'POST', headers: sent, body: text });
  const type = String(response.headers['x-amzn-errortype'] ?? '').split(':')[0];
  return {
    status: response.statusCode,
    type,
    retryAfter: response.headers['retry-after'],
    body: (await response.body.json()) as { message?: string },
  };
}
const hello = { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] };

describe('authentication', () => {
  test('no credentials, no x-amz-date, a scope for another service', async () => {
    expect(await send(converse(), hello, { 'content-type': 'application/json' })).toMatchObject({
      status: 403,
      type: 'MissingAuthenticationTokenException',
      body: { message: 'Missing Authentication Token' },
    });
    const signed = await signBedrockRequest({
      url: converse(),
      headers: {},
      body: JSON.stringify(hello),
      credential,
      region: 'us-east-1',
    });
    const { ['x-amz-date']: _date, ...undated } = signed;
    expect(await send(converse(), hello, undated)).toMatchObject({
      status: 403,
      type: 'IncompleteSignatureException',
      body: {
        message: expect.stringMatching(
          /^Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header/,
        ),
      },
    });
    const runtime = new SignatureV4({
      service: 'bedrock-runtime',
      region: 'us-east-1',
      credentials: FAKE_AWS_CREDENTIAL,
      sha256: Hash.bind(null, 'sha256'),
    });
    const url = new URL(converse());
    const wrongService = await runtime.sign({
      method: 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      path: url.pathname,
      headers: { host: url.host },
      body: JSON.stringify(hello),
    });
    expect(await send(converse(), hello, wrongService.headers)).toMatchObject({
      status: 403,
      type: 'InvalidSignatureException',
      body: { message: "Credential should be scoped to correct service: 'bedrock'. " },
    });
  });

  test('a body changed after signing; an unknown Bedrock API key', async () => {
    const signed = await signBedrockRequest({
      url: converse(),
      headers: {},
      body: JSON.stringify(hello),
      credential,
      region: 'us-east-1',
    });
    expect(await send(converse(), { ...hello, inferenceConfig: { maxTokens: 5 } }, signed)).toMatchObject({
      status: 403,
      type: 'InvalidSignatureException',
    });
    expect(await send(converse(), hello, { authorization: 'Bearer ABSKbm9wZQ==' })).toMatchObject({
      status: 403,
      type: 'UnrecognizedClientException',
    });
  });
});

describe('scripted errors', () => {
  test('statuses become their exceptions, with Retry-After kept', async () => {
    fake.script({ type: 'error', status: 503, retryAfter: 4 }, { type: 'error', status: 408 });
    expect(await send(converse(), hello)).toMatchObject({
      status: 503,
      type: 'ServiceUnavailableException',
      retryAfter: '4',
    });
    expect(await send(converse(), hello)).toMatchObject({ status: 408, type: 'ModelTimeoutException' });
  });
});

describe('request bodies', () => {
  const claude = {
    anthropic_version: 'bedrock-2023-05-31',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'Hi' }],
  };
  const refusal = (message: string | RegExp) => ({
    status: 400,
    type: 'ValidationException',
    body: { message },
  });

  test('invoke: stream, a missing anthropic_version, a bad anthropic_beta, an Anthropic refusal, a non-Claude model', async () => {
    const malformed = (detail: string) =>
      refusal(`Malformed input request: ${detail}, please reformat your input and try again.`);
    expect(await send(invoke(), { ...claude, stream: true })).toMatchObject(
      malformed('#: extraneous key [stream] is not permitted'),
    );
    const { anthropic_version: _version, ...unversioned } = claude;
    expect(await send(invoke(), unversioned)).toMatchObject(
      malformed('#: required key [anthropic_version] not found'),
    );
    expect(await send(invoke(), { ...claude, anthropic_beta: 'x' })).toMatchObject(
      malformed('#/anthropic_beta: expected type: JSONArray, found: String'),
    );
    expect(await send(invoke(), { ...claude, max_tokens: 0 })).toMatchObject(
      refusal('max_tokens: Input should be greater than or equal to 1'),
    );
    const titan = `${fake.origin}/model/amazon.titan-text-express-v1/invoke`;
    expect(await send(titan, claude)).toMatchObject(refusal('The provided model identifier is invalid.'));
  });

  test('converse: roles, empty content, blank text, unanswered tool uses, tools without toolConfig, inference settings', async () => {
    const user = (content: unknown[]) => ({ role: 'user', content });
    const assistant = (content: unknown[]) => ({ role: 'assistant', content });
    const toolUse = { toolUse: { toolUseId: 'tooluse_a', name: 'get_weather', input: {} } };
    const toolConfig = {
      tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }],
    };
    expect(
      await send(converse(), { messages: [user([{ text: 'a' }]), user([{ text: 'b' }])] }),
    ).toMatchObject(refusal(/^A conversation must alternate between user and assistant roles/));
    expect(await send(converse(), { messages: [user([])] })).toMatchObject(
      refusal(/^The content field in the Message object at messages.0 is empty/),
    );
    expect(await send(converse(), { messages: [user([{ text: ' ' }])] })).toMatchObject(
      refusal(/^The text field in the ContentBlock object at messages.0.content.0 is blank/),
    );
    expect(await send(converse(), { messages: [user([{ text: 'a', image: {} }])] })).toMatchObject({
      status: 400,
      type: 'ValidationException',
    });
    const unanswered = {
      toolConfig,
      messages: [user([{ text: 'a' }]), assistant([toolUse]), user([{ text: 'b' }])],
    };
    expect(await send(converse(), unanswered)).toMatchObject(
      refusal('Expected toolResult blocks at messages.2.content for the following Ids: tooluse_a'),
    );
    const answered = user([{ toolResult: { toolUseId: 'tooluse_a', content: [{ text: '18C' }] } }]);
    const toolless = { messages: [user([{ text: 'a' }]), assistant([toolUse]), answered] };
    expect(await send(converse(), toolless)).toMatchObject(
      refusal('The toolConfig field must be defined when using toolUse and toolResult content blocks.'),
    );
    expect(await send(converse(), { ...hello, inferenceConfig: { temperature: 1.5 } })).toMatchObject(
      refusal(
        "1 validation error detected: Value '1.5' at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value less than or equal to 1",
      ),
    );
    expect(await send(converse(), { ...hello, inferenceConfig: { maxTokens: '5' } })).toMatchObject({
      status: 400,
      type: 'SerializationException',
    });
  });
});
