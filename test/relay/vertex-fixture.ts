import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import type { FakeUpstream, RecordedRequest } from '../fakes/fake-upstream.js';
import { startFakeVertex, type FakeVertex } from '../fakes/fake-vertex.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

export const PROJECT = 'vertex-project';
export const REGION = 'europe-west4';
export const GEMINI_UPSTREAM = 'gemini-2.5-flash';
export const CLAUDE_UPSTREAM = 'claude-sonnet-4-5@20250929';
export const ANTHROPIC_KEY = 'sk-ant-direct';
export const GEMINI_KEY = 'gemini-direct-key';
export const VERTEX_TEXT = 'Hello from fake Vertex.';

/** Per million tokens; the fakes report 20 input (8 cached, 4 cache-write on Claude) and 12 output. */
const geminiPrice = { input: 1.25, output: 10, cached_input: 0.125 };
const claudePrice = { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 };
/** (20 - 8) x 1.25 + 8 x 0.125 + 12 x 10, per million. */
export const GEMINI_COST = 136e-6;
/** (20 - 8 - 4) x 3 + 8 x 0.3 + 4 x 3.75 + 12 x 15, per million. */
export const CLAUDE_COST = 221.4e-6;

export interface VertexFixture {
  gw: TestGateway;
  vertex: FakeVertex;
  /** Direct upstreams for failover: `shared-claude` after Vertex, and `fo-gemini`. */
  directAnthropic: FakeUpstream;
  directGemini: FakeUpstream;
  /** `vertex` serves `vx-gemini` then `vx-claude`; `shared` serves `shared-claude` before `anthropic`. */
  channels: { vertex: number; shared: number; anthropic: number; gemini: number };
  key: string;
  openai: OpenAI;
  anthropic: Anthropic;
  google: GoogleGenAI;
  /** A channel through the management API; its id. */
  addChannel(body: Record<string, unknown>): Promise<number>;
  /** The config of a vertex channel on the fake: its region, project and token endpoint. */
  vertexConfig(): Record<string, string>;
  /** Waits for settlements and the usage writer, then reads the usage log, newest first. */
  logs(): Promise<Record<string, unknown>[]>;
  /** Disabling and enabling a channel clears its health (cooldowns after a failure). */
  resetHealth(...ids: number[]): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

/**
 * A gateway with a Vertex channel on the fake (a Gemini and a Claude model), a Vertex channel
 * ahead of a direct Anthropic one, and a direct Gemini channel for failover tests.
 */
export async function startVertexFixture(): Promise<VertexFixture> {
  const vertex = await startFakeVertex({ project: PROJECT, region: REGION });
  const directAnthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
  const directGemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  const gw = await startTestGateway();
  const addChannel = async (body: Record<string, unknown>) => {
    const created = await gw.admin('POST', '/channels', body);
    expect(created.status).toBe(201);
    return created.body.id as number;
  };
  const vertexConfig = () => ({ region: REGION, token_url: vertex.tokenUrl });
  const onVertex = {
    type: 'vertex',
    base_url: vertex.origin,
    keys: [vertex.serviceAccount.json],
    config: vertexConfig(),
  };
  const channels = {
    vertex: await addChannel({
      ...onVertex,
      name: 'vertex',
      models: ['vx-gemini', 'vx-claude'],
      model_mapping: { 'vx-gemini': GEMINI_UPSTREAM, 'vx-claude': CLAUDE_UPSTREAM },
    }),
    shared: await addChannel({
      ...onVertex,
      name: 'vertex first',
      config: { ...vertexConfig(), project: PROJECT },
      models: ['shared-claude'],
      model_mapping: { 'shared-claude': CLAUDE_UPSTREAM },
      priority: 10,
    }),
    anthropic: await addChannel({
      name: 'anthropic after',
      type: 'anthropic',
      base_url: directAnthropic.origin,
      keys: [ANTHROPIC_KEY],
      models: ['shared-claude'],
      model_mapping: { 'shared-claude': 'claude-sonnet-4-5-20250929' },
    }),
    gemini: await addChannel({
      name: 'gemini after',
      type: 'gemini',
      base_url: directGemini.origin,
      keys: [GEMINI_KEY],
      models: ['fo-gemini'],
      model_mapping: { 'fo-gemini': GEMINI_UPSTREAM },
    }),
  };
  for (const model of ['vx-gemini', 'fo-gemini', 'only-refused'])
    await gw.admin('PUT', `/prices/${model}`, geminiPrice);
  for (const model of ['vx-claude', 'shared-claude']) await gw.admin('PUT', `/prices/${model}`, claudePrice);
  const user = await gw.admin('POST', '/users', { username: 'vertex-user', balance: 10 });
  const key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key as string;
  return {
    gw,
    vertex,
    directAnthropic,
    directGemini,
    channels,
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } }),
    addChannel,
    vertexConfig,
    async logs() {
      await gw.gateway.services.tracker.settled();
      await gw.gateway.services.ledger.storeRecords();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    async resetHealth(...ids) {
      for (const id of ids) {
        await gw.admin('PATCH', `/channels/${id}`, { status: 'disabled' });
        await gw.admin('PATCH', `/channels/${id}`, { status: 'enabled' });
      }
    },
    clear() {
      vertex.clear();
      directAnthropic.clear();
      directGemini.clear();
    },
    async close() {
      await gw.close();
      await vertex.close();
      await directAnthropic.close();
      await directGemini.close();
    },
  };
}

/** The path of a publisher model's method on the fake's project and region. */
export function vertexPath(publisher: 'google' | 'anthropic', model: string, method: string): string {
  return `/v1/projects/${PROJECT}/locations/${REGION}/publishers/${publisher}/models/${model}:${method}`;
}

/** The access tokens the fake's token endpoint issued, oldest first. */
export function issuedTokens(vertex: FakeVertex): string[] {
  return vertex.oauth.tokenRequests.flatMap((record) =>
    'issued' in record.outcome ? [record.outcome.issued] : [],
  );
}

/** A request as Vertex must see it: the URL, a live bearer token of the fake, nothing refused. */
export function expectVertexRequest(
  vertex: FakeVertex,
  received: RecordedRequest | undefined,
  expected: { url: string },
): void {
  expect(received?.url).toBe(expected.url);
  expect(received?.refused).toBeUndefined();
  const authorization = received?.headers.authorization ?? '';
  expect(authorization).toMatch(/^Bearer ya29\./);
  expect(vertex.oauth.lookUp(authorization.slice('Bearer '.length))).toMatchObject({
    clientEmail: vertex.serviceAccount.clientEmail,
  });
  expect(received?.headers['x-goog-api-key']).toBeUndefined();
  expect(received?.headers['x-api-key']).toBeUndefined();
}
