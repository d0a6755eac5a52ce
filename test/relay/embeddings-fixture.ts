import { GoogleGenAI } from '@google/genai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import OpenAI from 'openai';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

export const UPSTREAM_KEY = 'sk-upstream-embeddings';

/** Per million tokens; the output prices are there to show that an embedding never pays for output. */
export const PRICES = {
  'text-embedding-3-small': { input: 0.02, output: 50 },
  'gemini-embedding': { input: 0.15, output: 50 },
};

export interface EmbeddingsFixture {
  gw: TestGateway;
  /** `text-embedding-3-small` (mapped to `text-embedding-3-small-2024`), priority 1. */
  openaiUpstream: FakeUpstream;
  /** `text-embedding-3-small` unmapped, priority 0: where failover goes. */
  backupUpstream: FakeUpstream;
  /** `gemini-embedding` (mapped to `gemini-embedding-001`). */
  geminiUpstream: FakeUpstream;
  channels: { openai: number; backup: number; gemini: number; chat: number };
  userId: number;
  key: string;
  openai: OpenAI;
  genai: GoogleGenAI;
  /** Waits for settlements and the usage writer, then reads the usage log, newest first. */
  logs(): Promise<any[]>;
  balance(): Promise<number>;
  clear(): void;
  close(): Promise<void>;
}

/**
 * A gateway with embedding channels of both protocols (admin-api section 6): an `openai` channel
 * and its backup, a `gemini` channel, each declaring `embeddings`, and a chat-only `openai`
 * channel for `gpt-4o`. One user with 5 USD, an unlimited key, and both SDKs pointed at the gateway.
 */
export async function startEmbeddingsFixture(): Promise<EmbeddingsFixture> {
  const openaiUpstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  const backupUpstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  const geminiUpstream = await startFakeGemini({ apiKey: UPSTREAM_KEY });
  const gw = await startTestGateway();
  const channel = async (body: Record<string, unknown>) =>
    (await gw.admin('POST', '/channels', { keys: [UPSTREAM_KEY], ...body })).body.id as number;
  const channels = {
    openai: await channel({
      name: 'openai embeddings',
      type: 'openai',
      base_url: openaiUpstream.origin,
      models: ['text-embedding-3-small'],
      model_mapping: { 'text-embedding-3-small': 'text-embedding-3-small-2024' },
      endpoints: ['embeddings'],
      priority: 1,
    }),
    backup: await channel({
      name: 'openai embeddings backup',
      type: 'openai',
      base_url: backupUpstream.origin,
      models: ['text-embedding-3-small'],
      endpoints: ['embeddings'],
    }),
    gemini: await channel({
      name: 'gemini embeddings',
      type: 'gemini',
      base_url: geminiUpstream.origin,
      models: ['gemini-embedding'],
      model_mapping: { 'gemini-embedding': 'gemini-embedding-001' },
      endpoints: ['embeddings'],
    }),
    chat: await channel({
      name: 'chat',
      type: 'openai',
      base_url: openaiUpstream.origin,
      models: ['gpt-4o'],
    }),
  };
  for (const [model, price] of Object.entries(PRICES)) await gw.admin('PUT', `/prices/${model}`, price);
  await gw.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
  const user = await gw.admin('POST', '/users', { username: 'embedder', balance: 5 });
  const key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key as string;
  const settle = async () => {
    await gw.gateway.services.tracker.settled();
    await gw.gateway.services.ledger.storeRecords();
  };
  return {
    gw,
    openaiUpstream,
    backupUpstream,
    geminiUpstream,
    channels,
    userId: user.body.id,
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 }),
    genai: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } }),
    async logs() {
      await settle();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    async balance() {
      await settle();
      return (await gw.admin('GET', `/users/${user.body.id}`)).body.balance;
    },
    clear() {
      openaiUpstream.clear();
      backupUpstream.clear();
      geminiUpstream.clear();
    },
    async close() {
      await gw.close();
      await Promise.all([openaiUpstream.close(), backupUpstream.close(), geminiUpstream.close()]);
    },
  };
}

/** The gateway's count of texts: the o200k tokenizer, counted here with the library itself. */
export function tokensOf(...texts: string[]): number {
  return texts.reduce((sum, text) => sum + countTokens(text), 0);
}

/** USD for input tokens at a model's price (group ratio 1). */
export function inputCost(model: keyof typeof PRICES, tokens: number): number {
  return (tokens * PRICES[model].input) / 1e6;
}

/** The float32 values of a base64 embedding, read little-endian whatever the machine. */
export function readFloat32LittleEndian(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Array.from({ length: bytes.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
}

export const asFloat32 = (values: number[]) => values.map((value) => Math.fround(value));

/** An upstream that answers every request 200 with this JSON, whatever was asked. */
export async function startStaticJsonUpstream(
  body: unknown,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
