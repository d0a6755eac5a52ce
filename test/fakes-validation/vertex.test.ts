import { APIError } from '@anthropic-ai/sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { JWT, OAuth2Client, type GoogleAuthOptions } from 'google-auth-library';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { VertexTokenSource } from '../../src/providers/vertex/vertex-token-source.js';
import { startFakeGoogleOAuth, type FakeGoogleOAuth } from '../fakes/fake-google-oauth.js';
import { startFakeVertex, type FakeVertex } from '../fakes/fake-vertex.js';
import { localOnlyFetch } from '../helpers/local-only-fetch.js';

/** google-auth-library 10 signs for and posts to this URL, whatever the key file says. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const claude = 'claude-sonnet-4@20250514';
const weather = {
  name: 'get_weather',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
};

let oauth: FakeGoogleOAuth;
let fake: FakeVertex;
let token: string;
beforeAll(async () => {
  oauth = await startFakeGoogleOAuth({ extraAudiences: [GOOGLE_TOKEN_URL] });
  fake = await startFakeVertex({ oauth, project: 'fake-project', region: 'us-east5' });
  token = await new VertexTokenSource().token({ key: fake.serviceAccount.json, tokenUrl: fake.tokenUrl });
});
afterAll(async () => {
  await fake.close();
  await oauth.close();
});
beforeEach(() => {
  fake.clear();
  oauth.clear();
});

/** An auth client holding a token fetched beforehand: no token traffic of its own. */
function preloadedAuthClient(accessToken: string): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: accessToken, expiry_date: Date.now() + 3_600_000 });
  return client;
}

/** google-auth-library's own service-account flow, its token request sent to the fake. */
function serviceAccountClient() {
  const fetchImplementation = localOnlyFetch({ [GOOGLE_TOKEN_URL]: fake.tokenUrl });
  const { keyFile } = fake.serviceAccount;
  const client = new JWT({
    email: keyFile.client_email,
    key: keyFile.private_key,
    keyId: keyFile.private_key_id,
    scopes: [CLOUD_PLATFORM],
    transporterOptions: { fetchImplementation },
  });
  return { client, fetchImplementation };
}

function anthropicClient(authClient: OAuth2Client) {
  return new AnthropicVertex({
    region: fake.region,
    projectId: fake.project,
    baseURL: `${fake.origin}/v1`,
    authClient,
    maxRetries: 0,
  });
}

describe('the fake takes what @anthropic-ai/vertex-sdk sends', () => {
  test('messages.create: rawPredict with the body version, the model in the path, a bearer token', async () => {
    const message = await anthropicClient(preloadedAuthClient(token)).messages.create({
      model: claude,
      max_tokens: 100,
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message).toMatchObject({
      id: expect.stringMatching(/^msg_vrtx_/) as unknown,
      model: 'claude-sonnet-4-20250514',
      content: [{ type: 'text', text: 'Hello from fake Vertex.' }],
    });
    const [request] = fake.requests;
    expect(request?.refused).toBeUndefined();
    expect(request?.url).toBe(
      '/v1/projects/fake-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict',
    );
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers['anthropic-version']).toBeUndefined();
    // The SDK copies @anthropic-ai/sdk's `anthropic-version` header into the body.
    expect(request?.body).toMatchObject({ anthropic_version: '2026-10-21' });
    expect(request?.body).not.toHaveProperty('model');
  });

  test('messages.stream: streamRawPredict, thinking and a tool call, past the vertex_event', async () => {
    const stream = anthropicClient(preloadedAuthClient(token)).messages.stream({
      model: claude,
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [weather],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(message.stop_reason).toBe('tool_use');
    const [request] = fake.requests;
    expect(request?.path).toMatch(/\/models\/claude-sonnet-4@20250514:streamRawPredict$/);
    expect(request?.body).toMatchObject({ stream: true, anthropic_version: '2026-10-21' });
  });

  test("google-auth-library's service-account flow gets its token from the fake, once", async () => {
    const { client, fetchImplementation } = serviceAccountClient();
    const vertex = anthropicClient(client);
    const ask = () =>
      vertex.messages.create({ model: claude, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    await ask();
    expect(fetchImplementation.sent).toEqual([GOOGLE_TOKEN_URL]);
    expect(oauth.issuedCount()).toBe(1);
    expect(oauth.tokenRequests[0]?.claims).toMatchObject({
      iss: fake.serviceAccount.clientEmail,
      aud: GOOGLE_TOKEN_URL,
      scope: CLOUD_PLATFORM,
    });
    expect(fake.requests.map((request) => request.refused)).toEqual([undefined, undefined]);
  });

  test("errors: Google's 429 from the front end, Anthropic's 529, a stream's error event", async () => {
    const vertex = anthropicClient(preloadedAuthClient(token));
    const params = { model: claude, max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };
    fake.script(
      { type: 'error', status: 429, message: 'Quota exceeded for aiplatform.googleapis.com.' },
      { type: 'error', status: 529, message: 'Overloaded' },
      { type: 'error-mid-stream', afterChunks: 3 },
    );
    const quota = await vertex.messages.create(params).catch((error: unknown) => error);
    expect(quota).toBeInstanceOf(APIError);
    expect((quota as APIError).error).toEqual({
      error: {
        code: 429,
        message: 'Quota exceeded for aiplatform.googleapis.com.',
        status: 'RESOURCE_EXHAUSTED',
      },
    });
    const overloaded = await vertex.messages.create(params).catch((error: unknown) => error);
    expect((overloaded as APIError).error).toMatchObject({ error: { type: 'overloaded_error' } });
    const midStream = await vertex.messages
      .stream(params)
      .finalMessage()
      .catch((error: unknown) => error);
    expect(midStream).toBeInstanceOf(APIError);
    expect((midStream as APIError).message).toContain('Fake upstream stream error');
  });
});

describe('the fake takes what @google/genai sends in Vertex AI mode', () => {
  function genai(options: { apiVersion?: string; googleAuthOptions?: GoogleAuthOptions } = {}) {
    return new GoogleGenAI({
      vertexai: true,
      project: fake.project,
      location: fake.region,
      ...(options.apiVersion && { apiVersion: options.apiVersion }),
      httpOptions: { baseUrl: fake.origin },
      googleAuthOptions: options.googleAuthOptions ?? { authClient: preloadedAuthClient(token) },
    });
  }

  test('generateContent on v1beta1 (the SDK default), with createTime and trafficType', async () => {
    const response = await genai().models.generateContent({
      model: 'gemini-2.5-pro',
      contents: 'hi',
      config: { systemInstruction: 'Be terse.', temperature: 0.2, maxOutputTokens: 100 },
    });
    expect(response.text).toBe('Hello from fake Vertex.');
    expect(response.createTime).toBe('2023-11-14T22:13:20.000000Z');
    expect(response.usageMetadata?.trafficType).toBe('ON_DEMAND');
    const [request] = fake.requests;
    expect(request?.refused).toBeUndefined();
    expect(request?.url).toBe(
      '/v1beta1/projects/fake-project/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  test('generateContentStream on v1, thoughts and a function call', async () => {
    const stream = await genai({ apiVersion: 'v1' }).models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
      config: {
        tools: [
          { functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weather.input_schema }] },
        ],
        thinkingConfig: { includeThoughts: true },
      },
    });
    const calls: unknown[] = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([{ name: 'get_weather', args: { query: 'weather in Paris' } }]);
    expect(fake.requests[0]?.url).toBe(
      '/v1/projects/fake-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(fake.requests[0]?.refused).toBeUndefined();
  });

  test("google-auth-library's flow from a credentials object, and a mid-stream error", async () => {
    const fetchImplementation = localOnlyFetch({ [GOOGLE_TOKEN_URL]: fake.tokenUrl });
    const models = genai({
      googleAuthOptions: {
        credentials: fake.serviceAccount.keyFile,
        clientOptions: { transporterOptions: { fetchImplementation } },
      },
    }).models;
    await models.generateContent({ model: 'gemini-2.5-pro', contents: 'hi' });
    expect(fetchImplementation.sent).toEqual([GOOGLE_TOKEN_URL]);
    fake.script({ type: 'error-mid-stream', afterChunks: 1 });
    const failed = await (async () => {
      for await (const chunk of await models.generateContentStream({
        model: 'gemini-2.5-pro',
        contents: 'hi',
      }))
        expect(chunk.text).toBeDefined();
    })().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(String(failed)).toContain('Fake upstream stream error');
    expect(oauth.issuedCount()).toBe(1);
  });

  test('an unknown token is refused with 401 UNAUTHENTICATED', async () => {
    const failed = await genai({ googleAuthOptions: { authClient: preloadedAuthClient('ya29.not-issued') } })
      .models.generateContent({ model: 'gemini-2.5-pro', contents: 'hi' })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(401);
    expect((failed as ApiError).message).toContain('UNAUTHENTICATED');
  });
});
