import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import AnthropicBedrock from '@anthropic-ai/bedrock-sdk';
import { BedrockRuntimeClient, ConverseCommand, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseBedrockCredential } from '../../../src/providers/bedrock/bedrock-credential.js';
import { signBedrockRequest } from '../../../src/providers/bedrock/sign-bedrock-request.js';
import { FAKE_AWS_CREDENTIAL, startFakeBedrock } from '../../fakes/fake-bedrock.js';

interface Captured {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const captured: Captured[] = [];
const server = createServer((incoming, response) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    captured.push({
      url: incoming.url ?? '/',
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    response.writeHead(400, {
      'content-type': 'application/json',
      'x-amzn-errortype': 'ValidationException',
    });
    response.end('{"message":"captured"}');
  });
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const temporary = {
  accessKeyId: 'ASIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'tmp/Secret+Key',
  sessionToken: 'IQoJb3JpZ2luFAKE/token==',
};
const profileArn =
  'arn:aws:bedrock:eu-west-3:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-20250514-v1:0';

/** The last captured request signed again by `signBedrockRequest`, from the headers the SDK signed, at its time. */
async function resign(
  key: string,
  region: string,
): Promise<{ sent: Captured; ours: Record<string, string> }> {
  const sent = captured.at(-1)!;
  const header = (name: string) => String(sent.headers[name] ?? '');
  const signedNames = /SignedHeaders=([^,]+)/.exec(header('authorization'))?.[1]?.split(';') ?? [];
  const generated = new Set(['host', 'x-amz-date', 'x-amz-content-sha256', 'x-amz-security-token']);
  const headers = Object.fromEntries(
    signedNames.filter((name) => !generated.has(name)).map((name) => [name, header(name)]),
  );
  const [, year, month, day, hour, minute, second] =
    /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(header('x-amz-date')) ?? [];
  const now = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  const credential = parseBedrockCredential(key);
  const ours = await signBedrockRequest({
    url: `${origin}${sent.url}`,
    headers,
    body: sent.body,
    credential,
    region,
    now,
  });
  return { sent, ours };
}

describe('signBedrockRequest signs as the AWS SDKs do', () => {
  test('@aws-sdk/client-bedrock-runtime, temporary credentials, an inference-profile ARN (`:` and `/` encoded)', async () => {
    const client = new BedrockRuntimeClient({
      endpoint: origin,
      region: 'eu-west-3',
      credentials: temporary,
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
    const body = JSON.stringify({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await expect(
      client.send(new InvokeModelCommand({ modelId: profileArn, body, contentType: 'application/json' })),
    ).rejects.toThrow('captured');
    const { sent, ours } = await resign(
      `${temporary.accessKeyId}:${temporary.secretAccessKey}:${temporary.sessionToken}`,
      'eu-west-3',
    );
    expect(sent.url).toContain(
      '/model/arn%3Aaws%3Abedrock%3Aeu-west-3%3A123456789012%3Ainference-profile%2Feu.anthropic',
    );
    expect(ours.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=ASIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-3\/bedrock\/aws4_request, /,
    );
    for (const name of [
      'authorization',
      'x-amz-date',
      'x-amz-content-sha256',
      'x-amz-security-token',
      'host',
    ])
      expect([name, ours[name]]).toEqual([name, sent.headers[name]]);
  });

  test('Converse, long-term keys', async () => {
    const client = new BedrockRuntimeClient({
      endpoint: origin,
      region: 'us-east-1',
      credentials: FAKE_AWS_CREDENTIAL,
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
    await expect(
      client.send(
        new ConverseCommand({
          modelId: 'amazon.nova-lite-v1:0',
          messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
        }),
      ),
    ).rejects.toThrow('captured');
    const { sent, ours } = await resign(
      `${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`,
      'us-east-1',
    );
    expect(ours['x-amz-security-token']).toBeUndefined();
    expect(ours.authorization).toBe(sent.headers.authorization);
  });

  test('@anthropic-ai/bedrock-sdk, whose path keeps `:` unencoded', async () => {
    const client = new AnthropicBedrock({
      apiKey: null,
      awsAccessKey: FAKE_AWS_CREDENTIAL.accessKeyId,
      awsSecretKey: FAKE_AWS_CREDENTIAL.secretAccessKey,
      awsRegion: 'us-west-2',
      baseURL: origin,
      maxRetries: 0,
    });
    await expect(
      client.messages.create({
        model: profileArn,
        max_tokens: 5,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).rejects.toThrow();
    const { sent, ours } = await resign(
      `${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`,
      'us-west-2',
    );
    expect(sent.url).toContain(
      '/model/arn:aws:bedrock:eu-west-3:123456789012:inference-profile%2Feu.anthropic',
    );
    expect(ours.authorization).toBe(sent.headers.authorization);
  });
});

describe('signBedrockRequest', () => {
  const now = new Date('2025-03-04T05:06:07Z');
  const url = 'https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1%3A0/converse';
  const credential = parseBedrockCredential(
    `${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`,
  );

  test('the header set of a SigV4-signed request', async () => {
    const headers = await signBedrockRequest({
      url,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      credential,
      region: 'us-east-1',
      now,
    });
    expect(Object.keys(headers).sort()).toEqual([
      'authorization',
      'content-type',
      'host',
      'x-amz-content-sha256',
      'x-amz-date',
    ]);
    expect(headers).toMatchObject({
      host: 'bedrock-runtime.us-east-1.amazonaws.com',
      'x-amz-date': '20250304T050607Z',
      // SHA-256 of `{}`.
      'x-amz-content-sha256': '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
    });
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20250304\/us-east-1\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  test('a Bedrock API key is a bearer token, nothing else added', async () => {
    const headers = await signBedrockRequest({
      url,
      headers: { accept: 'application/json' },
      body: '{}',
      credential: parseBedrockCredential('ABSKZmFrZQ=='),
      region: 'us-east-1',
    });
    expect(headers).toEqual({ accept: 'application/json', authorization: 'Bearer ABSKZmFrZQ==' });
  });

  test('the fake Bedrock takes a request signed now, and refuses the same request signed ten minutes ago', async () => {
    const fake = await startFakeBedrock();
    try {
      const target = `${fake.origin}/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-20250514-v1:0')}/invoke`;
      const body = JSON.stringify({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const send = async (signedAt: Date) => {
        const headers = await signBedrockRequest({
          url: target,
          headers: { 'content-type': 'application/json' },
          body,
          credential,
          region: 'us-east-1',
          now: signedAt,
        });
        const response = await request(target, { method: 'POST', headers, body });
        return {
          status: response.statusCode,
          type: response.headers['x-amzn-errortype'],
          body: (await response.body.json()) as { message?: string },
        };
      };
      expect(await send(new Date())).toMatchObject({ status: 200, body: { type: 'message' } });
      expect(await send(new Date(Date.now() - 10 * 60_000))).toMatchObject({
        status: 403,
        type: 'InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/',
        body: { message: expect.stringMatching(/^Signature expired: \d{8}T\d{6}Z is now earlier than /) },
      });
    } finally {
      await fake.close();
    }
  });
});
