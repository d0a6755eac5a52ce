import { describe, expect, it } from 'vitest';
import { prepareUpstreamCall } from '../../src/providers/prepare-upstream-call.js';
import { findProvider } from '../../src/providers/registry.js';
import { createUpstreamDispatcher } from '../../src/providers/upstream-dispatcher.js';
import { makeTestServiceAccount } from '../fakes/make-test-service-account.js';

/** Bedrock and Vertex: URLs, bodies and credentials as admin-api section 5 fixes them. */

const dispatcher = createUpstreamDispatcher();
const bedrock = findProvider('bedrock')!;
const vertex = findProvider('vertex')!;

const prepare = (options: Omit<Parameters<typeof prepareUpstreamCall>[0], 'dispatcher'>) =>
  prepareUpstreamCall({ ...options, dispatcher });

describe('bedrock', () => {
  const channel = { baseUrl: null, config: { region: 'eu-central-1' } };
  const messagesBody = {
    model: 'm',
    max_tokens: 5,
    stream: true,
    messages: [{ role: 'user', content: 'hi' }],
  };

  it('derives its origin from the region and serves Claude through invoke, others through converse', () => {
    expect(bedrock.defaultBaseUrl({ region: 'eu-central-1' })).toBe(
      'https://bedrock-runtime.eu-central-1.amazonaws.com',
    );
    expect(bedrock.upstreamEndpoints('anthropic.claude-sonnet-4-5-20250929-v1:0', {})).toEqual([
      'anthropic-messages',
    ]);
    expect(bedrock.upstreamEndpoints('us.anthropic.claude-opus-4-1-20250805-v1:0', {})).toEqual([
      'anthropic-messages',
    ]);
    expect(bedrock.upstreamEndpoints('amazon.nova-pro-v1:0', {})).toEqual(['bedrock-converse']);
    expect(bedrock.endpointTypes('amazon.nova-pro-v1:0')).toEqual(['anthropic', 'openai']);
  });

  it('a Claude stream: invoke-with-response-stream, the model ID encoded, no model or stream in the body, betas in the body', async () => {
    const call = await prepare({
      provider: bedrock,
      channel,
      endpoint: 'anthropic-messages',
      model:
        'arn:aws:bedrock:eu-central-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
      stream: true,
      key: 'AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      body: messagesBody,
      extraHeaders: {
        'anthropic-beta': 'context-1m-2025-08-07, interleaved-thinking-2025-05-14',
        'anthropic-version': '2023-06-01',
      },
    });
    expect(call?.url).toBe(
      'https://bedrock-runtime.eu-central-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aeu-central-1%3A123456789012%3Ainference-profile%2Feu.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
    );
    expect(JSON.parse(String(call!.body))).toEqual({
      max_tokens: 5,
      messages: [{ role: 'user', content: 'hi' }],
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'],
    });
    expect(call!.headers['anthropic-version']).toBeUndefined();
    expect(call!.headers['anthropic-beta']).toBeUndefined();
    expect(call!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-central-1\/bedrock\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/,
    );
    expect(call!.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(call!.framing).toBeTypeOf('function');
  });

  it('converse without streaming, a session token, and a Bedrock API key as a bearer token', async () => {
    const signed = await prepare({
      provider: bedrock,
      channel,
      endpoint: 'bedrock-converse',
      model: 'amazon.nova-pro-v1:0',
      stream: false,
      key: 'ASIAIOSFODNN7EXAMPLE:secret:session-token-value',
      body: { messages: [] },
    });
    expect(signed?.url).toBe(
      'https://bedrock-runtime.eu-central-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/converse',
    );
    expect(signed!.headers['x-amz-security-token']).toBe('session-token-value');
    const bearer = await prepare({
      provider: bedrock,
      channel,
      endpoint: 'bedrock-converse',
      model: 'amazon.nova-pro-v1:0',
      stream: true,
      key: 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl',
      body: { messages: [] },
    });
    expect(bearer?.url.endsWith('/converse-stream')).toBe(true);
    expect(bearer!.headers.authorization).toBe('Bearer ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl');
  });

  it('requires a region, and serves no other endpoint', async () => {
    expect(bedrock.configSchema.safeParse({}).success).toBe(false);
    expect(bedrock.configSchema.safeParse({ region: 'eu-central-1', profile: 'x' }).success).toBe(false);
    const call = await prepare({
      provider: bedrock,
      channel,
      endpoint: 'openai-chat',
      model: 'amazon.nova-pro-v1:0',
      stream: false,
      key: 'ABSKx',
      body: {},
    });
    expect(call).toBeUndefined();
  });
});

describe('vertex', () => {
  const account = makeTestServiceAccount({ tokenUri: 'http://127.0.0.1:9/token', projectId: 'key-project' });

  it('derives the regional origin; Claude models are anthropic, Gemini models gemini', () => {
    expect(vertex.defaultBaseUrl(vertex.configSchema.parse({}))).toBe(
      'https://us-central1-aiplatform.googleapis.com',
    );
    expect(vertex.defaultBaseUrl({ region: 'global' })).toBe('https://aiplatform.googleapis.com');
    expect(vertex.endpointTypes('claude-sonnet-4-5@20250929')).toEqual(['anthropic', 'openai']);
    expect(vertex.endpointTypes('gemini-2.5-pro')).toEqual(['gemini', 'openai']);
    expect(vertex.upstreamEndpoints('claude-sonnet-4-5@20250929', {})).toEqual(['anthropic-messages']);
    expect(vertex.upstreamEndpoints('gemini-2.5-pro', {})).toEqual(['gemini-generate-content']);
    expect(vertex.configSchema.parse({})).toEqual({
      region: 'us-central1',
      token_url: 'https://oauth2.googleapis.com/token',
    });
  });

  it('builds the project paths: the key’s project unless the config names one', () => {
    const url = (
      config: Record<string, unknown>,
      endpoint: 'anthropic-messages' | 'gemini-generate-content',
      model: string,
      stream: boolean,
    ) =>
      vertex.buildUrl({
        origin: 'https://europe-west1-aiplatform.googleapis.com',
        key: account.json,
        config: vertex.configSchema.parse(config),
        endpoint,
        model,
        stream,
      });
    expect(url({ region: 'europe-west1' }, 'gemini-generate-content', 'gemini-2.5-pro', true)).toBe(
      'https://europe-west1-aiplatform.googleapis.com/v1/projects/key-project/locations/europe-west1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(
      url(
        { region: 'europe-west1', project: 'other' },
        'anthropic-messages',
        'claude-sonnet-4-5@20250929',
        false,
      ),
    ).toBe(
      'https://europe-west1-aiplatform.googleapis.com/v1/projects/other/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict',
    );
    expect(
      url({}, 'anthropic-messages', 'claude-sonnet-4-5@20250929', true)?.endsWith(':streamRawPredict'),
    ).toBe(true);
  });

  it('sends Claude the Messages body without model, with Vertex’s version; beta stays a header, the query behind', () => {
    const adapted = vertex.adaptPayload!(
      {
        body: { model: 'claude', max_tokens: 5, stream: true, messages: [] },
        extraHeaders: { 'anthropic-beta': 'b1', 'anthropic-version': '2023-06-01' },
        query: 'beta=true',
      },
      { endpoint: 'anthropic-messages', stream: true },
    );
    expect(adapted).toEqual({
      body: { max_tokens: 5, stream: true, messages: [], anthropic_version: 'vertex-2023-10-16' },
      extraHeaders: { 'anthropic-beta': 'b1' },
      query: '',
    });
    const gemini = { body: { contents: [] }, extraHeaders: {} };
    expect(vertex.adaptPayload!(gemini, { endpoint: 'gemini-generate-content', stream: false })).toBe(gemini);
  });

  it('refuses a key that is not a service-account key, without echoing it', () => {
    const problem = vertex.describeKeyProblem!('sk-not-a-service-account');
    expect(problem).toBeTypeOf('string');
    expect(problem).not.toContain('sk-not-a-service-account');
    expect(vertex.describeKeyProblem!(account.json)).toBeUndefined();
  });
});
