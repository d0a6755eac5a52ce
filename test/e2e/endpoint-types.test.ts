import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeJina } from '../fakes/fake-jina.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { expectOpenAIError, send, type ClientResponse } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * Only listed endpoints are served (client-api 2.1 and 4.1, admin-api sections 4 and 6): every
 * client endpoint against channels of derived and of overridden `endpoints` lists. A channel that
 * lists a conversational type serves every conversational endpoint, by conversion (client-api
 * 4.9); one that lists none serves none of them. A model no channel serves for the endpoint called
 * is 503 `model_not_found`, and nothing goes upstream.
 */

const UPSTREAM_KEY = 'upstream-key';

type Vendor = 'openai' | 'jina' | 'anthropic' | 'gemini';

interface ChannelCase {
  model: string;
  vendor: Vendor;
  type: string;
  endpoints: string[] | null;
  /** The client endpoints the model is served on. */
  served: readonly Call[];
  upstreamModel?: string;
}

type Call =
  | 'chat'
  | 'responses'
  | 'messages'
  | 'generate-content'
  | 'embeddings'
  | 'embed-content'
  | 'rerank'
  | 'images'
  | 'compact'
  | 'alpha-search';

const CONVERSATIONAL: readonly Call[] = ['chat', 'responses', 'messages', 'generate-content'];

const channels: readonly ChannelCase[] = [
  { model: 'gpt-derived', vendor: 'openai', type: 'openai', endpoints: null, served: CONVERSATIONAL },
  {
    model: 'claude-derived',
    vendor: 'anthropic',
    type: 'anthropic',
    endpoints: null,
    served: CONVERSATIONAL,
  },
  { model: 'gemini-derived', vendor: 'gemini', type: 'gemini', endpoints: null, served: CONVERSATIONAL },
  {
    model: 'embed-only',
    vendor: 'openai',
    type: 'openai',
    endpoints: ['embeddings'],
    served: ['embeddings', 'embed-content'],
  },
  {
    model: 'gemini-embed-only',
    vendor: 'gemini',
    type: 'gemini',
    endpoints: ['embeddings'],
    served: ['embeddings', 'embed-content'],
  },
  { model: 'rerank-only', vendor: 'jina', type: 'openai', endpoints: ['jina-rerank'], served: ['rerank'] },
  {
    model: 'image-only',
    vendor: 'openai',
    type: 'openai',
    endpoints: ['image-generation'],
    served: ['images'],
    upstreamModel: 'gpt-image-1',
  },
  {
    model: 'compact-only',
    vendor: 'openai',
    type: 'openai',
    endpoints: ['openai-response-compact'],
    served: ['compact'],
  },
  { model: 'chat-only', vendor: 'openai', type: 'openai', endpoints: ['openai'], served: CONVERSATIONAL },
  {
    model: 'claude-chat-only',
    vendor: 'anthropic',
    type: 'anthropic',
    endpoints: ['openai'],
    served: CONVERSATIONAL,
  },
  {
    model: 'search-and-chat',
    vendor: 'openai',
    type: 'openai',
    endpoints: ['openai', 'openai-alpha-search'],
    served: [...CONVERSATIONAL, 'alpha-search'],
  },
];

/** Endpoints that name their path when the model's channels exist but none takes it (client-api 4.4). */
const REFUSAL_PATHS: Partial<Record<Call, string>> = {
  compact: '/v1/responses/compact',
  'alpha-search': '/v1/alpha/search',
};

let gw: TestGateway;
let key: string;
const fakes = new Map<Vendor, FakeUpstream>();

beforeAll(async () => {
  fakes.set('openai', await startFakeOpenAI({ apiKey: UPSTREAM_KEY }));
  fakes.set('jina', await startFakeJina({ apiKey: UPSTREAM_KEY }));
  fakes.set('anthropic', await startFakeAnthropic({ apiKey: UPSTREAM_KEY }));
  fakes.set('gemini', await startFakeGemini({ apiKey: UPSTREAM_KEY }));
  gw = await startTestGateway();
  for (const channel of channels) {
    const created = await gw.admin('POST', '/channels', {
      name: channel.model,
      type: channel.type,
      base_url: fakes.get(channel.vendor)!.origin,
      keys: [UPSTREAM_KEY],
      models: [channel.model],
      model_mapping: channel.upstreamModel ? { [channel.model]: channel.upstreamModel } : {},
      endpoints: channel.endpoints,
    });
    expect(created.status).toBe(201);
    await gw.admin('PUT', `/prices/${channel.model}`, { input: 1, output: 2, per_request: 0.01 });
  }
  const user = await gw.admin('POST', '/users', { username: 'endpoint-types', balance: 100 });
  key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
});

afterAll(async () => {
  await gw?.close();
  for (const fake of fakes.values()) await fake.close();
});

function call(kind: Call, model: string): Promise<ClientResponse> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(gw.origin, path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, ...headers },
      body,
    });
  const hi = [{ role: 'user', content: 'hi' }];
  switch (kind) {
    case 'chat':
      return post('/v1/chat/completions', { model, messages: hi });
    case 'responses':
      return post('/v1/responses', { model, input: 'hi' });
    case 'messages':
      return post(
        '/v1/messages',
        { model, max_tokens: 32, messages: hi },
        { 'anthropic-version': '2023-06-01' },
      );
    case 'generate-content':
      return post(`/v1beta/models/${model}:generateContent`, {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      });
    case 'embeddings':
      return post('/v1/embeddings', { model, input: 'hi' });
    case 'embed-content':
      return post(`/v1beta/models/${model}:embedContent`, { content: { parts: [{ text: 'hi' }] } });
    case 'rerank':
      return post('/v1/rerank', { model, query: 'sky', documents: ['blue sky', 'green grass'] });
    case 'images':
      return post('/v1/images/generations', { model, prompt: 'a blue sky' });
    case 'compact':
      return post('/v1/responses/compact', { model, input: 'hi' });
    case 'alpha-search':
      return post('/v1/alpha/search', { model, query: 'sky' });
    default: {
      const unknown: never = kind;
      throw new Error(`unknown call ${String(unknown)}`);
    }
  }
}

const ALL_CALLS: readonly Call[] = [
  'chat',
  'responses',
  'messages',
  'generate-content',
  'embeddings',
  'embed-content',
  'rerank',
  'images',
  'compact',
  'alpha-search',
];

const grid = channels.flatMap((channel) =>
  ALL_CALLS.map((kind) => ({ ...channel, kind, isServed: channel.served.includes(kind) })),
);

const requestsSoFar = () => [...fakes.values()].reduce((total, fake) => total + fake.requests.length, 0);

describe.each(grid)('$kind on $model (endpoints $endpoints)', ({ kind, model, isServed }) => {
  it(isServed ? 'is served' : 'is not served, and nothing goes upstream', async () => {
    const before = requestsSoFar();
    const response = await call(kind, model);
    if (isServed) {
      expect(response.status, response.text.slice(0, 300)).toBe(200);
      expect(requestsSoFar()).toBeGreaterThan(before);
      return;
    }
    const refusalPath = REFUSAL_PATHS[kind];
    if (kind === 'images' && model === 'gemini-derived')
      // A Gemini model that is not Imagen generates images through generateContent (client-api 4.6).
      expectOpenAIError(response, {
        status: 500,
        message: 'not supported model for image generation, only imagen models are supported',
      });
    else if (refusalPath)
      expectOpenAIError(response, {
        status: 400,
        code: 'invalid_request',
        message: `channel does not support ${refusalPath}`,
      });
    else
      expectOpenAIError(response, {
        status: 503,
        code: 'model_not_found',
        message: `No available channel for model ${model} under group default (distributor)`,
      });
    expect(requestsSoFar()).toBe(before);
  });
});

describe('a channel called only at the endpoints it lists', () => {
  it('an openai channel listing only chat completions gets a Responses client as chat completions', async () => {
    const openai = fakes.get('openai')!;
    openai.clear();
    const response = await call('responses', 'chat-only');
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('response');
    expect(openai.requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
  });

  it('an openai channel of derived types gets a Responses client as Responses', async () => {
    const openai = fakes.get('openai')!;
    openai.clear();
    expect((await call('responses', 'gpt-derived')).status).toBe(200);
    expect(openai.requests.map((request) => request.path)).toEqual(['/v1/responses']);
  });

  it('an anthropic channel listing only chat completions still speaks messages upstream', async () => {
    const anthropic = fakes.get('anthropic')!;
    anthropic.clear();
    expect((await call('chat', 'claude-chat-only')).status).toBe(200);
    expect(anthropic.requests.map((request) => request.path)).toEqual(['/v1/messages']);
  });

  it('the model list shows each model the types it is served on', async () => {
    const list = await send(gw.origin, '/v1/models', { headers: { authorization: `Bearer ${key}` } });
    const types = (id: string) =>
      list.body.data.find((model: { id: string }) => model.id === id)?.supported_endpoint_types;
    expect(types('embed-only')).toEqual(['embeddings']);
    expect(types('rerank-only')).toEqual(['jina-rerank']);
    expect(types('chat-only')).toEqual(['openai']);
    expect(types('gpt-derived')).toEqual(['openai', 'openai-response']);
  });
});
