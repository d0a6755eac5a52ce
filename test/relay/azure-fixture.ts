import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { startFakeAzure, type FakeAzure } from '../fakes/fake-azure.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream, RecordedRequest } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

export const AZURE_KEY = 'azure-resource-key';
export const OPENAI_KEY = 'sk-direct-openai';
export const DATED_VERSION = '2025-04-01-preview';
/** Deployment names of the fake resource, and the models they run. */
export const DEPLOYMENTS = { 'chat-v1': 'gpt-4o-2024-11-20', 'chat-dated': 'gpt-4o-2024-08-06' };

/** Per million tokens; the fakes report 20 input (8 cached) and 12 output tokens. */
const price = { input: 2.5, output: 10, cached_input: 1.25 };
/** (20 - 8) x 2.5 + 8 x 1.25 + 12 x 10, per million. */
export const EXPECTED_COST = 160e-6;

export interface AzureFixture {
  gw: TestGateway;
  azure: FakeAzure;
  /** A direct `openai` channel's upstream, serving `shared-4o` after the Azure channel. */
  direct: FakeUpstream;
  /** `azure-v1` (api_version v1 by default) and `azure-dated`; `shared` serves `shared-4o`, `openai` too. */
  channels: { v1: number; dated: number; shared: number; openai: number };
  key: string;
  openai: OpenAI;
  anthropic: Anthropic;
  google: GoogleGenAI;
  /** Waits for settlements and the usage writer, then reads the usage log, newest first. */
  logs(): Promise<Record<string, unknown>[]>;
  clear(): void;
  close(): Promise<void>;
}

/** A gateway with Azure channels of both API styles on one fake resource, and a direct OpenAI channel. */
export async function startAzureFixture(): Promise<AzureFixture> {
  const azure = await startFakeAzure({ apiKey: AZURE_KEY, deployments: DEPLOYMENTS });
  const direct = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  const gw = await startTestGateway();
  const channel = async (body: Record<string, unknown>) => {
    const created = await gw.admin('POST', '/channels', body);
    expect(created.status).toBe(201);
    return created.body.id as number;
  };
  const onAzure = { type: 'azure', base_url: azure.origin, keys: [AZURE_KEY] };
  const channels = {
    v1: await channel({
      ...onAzure,
      name: 'azure v1',
      models: ['azure-v1'],
      model_mapping: { 'azure-v1': 'chat-v1' },
    }),
    dated: await channel({
      ...onAzure,
      name: 'azure dated',
      models: ['azure-dated'],
      model_mapping: { 'azure-dated': 'chat-dated' },
      config: { api_version: DATED_VERSION },
    }),
    shared: await channel({
      ...onAzure,
      name: 'azure first',
      models: ['shared-4o'],
      model_mapping: { 'shared-4o': 'chat-v1' },
      priority: 10,
    }),
    openai: await channel({
      name: 'openai after',
      type: 'openai',
      base_url: direct.origin,
      keys: [OPENAI_KEY],
      models: ['shared-4o'],
      model_mapping: { 'shared-4o': 'gpt-4o-2024-08-06' },
    }),
  };
  for (const model of ['azure-v1', 'azure-dated', 'shared-4o'])
    await gw.admin('PUT', `/prices/${model}`, price);
  const user = await gw.admin('POST', '/users', { username: 'azure-user', balance: 10 });
  const key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key as string;
  return {
    gw,
    azure,
    direct,
    channels,
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } }),
    async logs() {
      await gw.gateway.services.tracker.settled();
      await gw.gateway.services.ledger.storeRecords();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    clear() {
      azure.clear();
      direct.clear();
    },
    async close() {
      await gw.close();
      await azure.close();
      await direct.close();
    },
  };
}

/** What a request must look like on Azure's wire: the key in `api-key`, never a Bearer header. */
export function expectAzureRequest(
  received: RecordedRequest | undefined,
  expected: { url: string; deployment: string },
): void {
  expect(received?.url).toBe(expected.url);
  expect(received?.headers['api-key']).toBe(AZURE_KEY);
  expect(received?.headers.authorization).toBeUndefined();
  expect(received?.body).toMatchObject({ model: expected.deployment });
  expect(received?.refused).toBeUndefined();
}
