import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from './start-test-gateway.js';

export type Vendor = 'openai' | 'anthropic' | 'gemini';
export type ClientFamily = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

const KEY = 'stream-upstream-key';
/** The model each vendor's channel serves. */
export const MODELS: Record<Vendor, string> = {
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4',
  gemini: 'gemini-2.5-pro',
};

export interface VendorStreamGateway {
  gw: TestGateway;
  fakes: Record<Vendor, FakeUpstream>;
  /** The usage log, newest first, once every settlement is done. */
  logs(): Promise<any[]>;
  /** Streams a short prompt with the family's official SDK: the text it showed, and what it raised. */
  readWithSdk(family: ClientFamily, vendor: Vendor): Promise<{ text: string; error: unknown }>;
  /** The family's request, sent with `fetch`: the bytes the gateway wrote. */
  readRaw(family: ClientFamily, vendor: Vendor, body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * A gateway with one channel per vendor, each on its own fake upstream, every model priced, retries
 * off, and a user key; same-protocol pairs pass through, the others convert.
 */
export async function startVendorStreamGateway(): Promise<VendorStreamGateway> {
  const gw = await startTestGateway();
  const fakes = {
    openai: await startFakeOpenAI({ apiKey: KEY }),
    anthropic: await startFakeAnthropic({ apiKey: KEY }),
    gemini: await startFakeGemini({ apiKey: KEY }),
  };
  for (const vendor of ['openai', 'anthropic', 'gemini'] as const) {
    const model = MODELS[vendor];
    await gw.admin('POST', '/channels', {
      name: vendor,
      type: vendor,
      base_url: fakes[vendor].origin,
      keys: [KEY],
      models: [model],
    });
    await gw.admin('PUT', `/prices/${model}`, { input: 1, output: 2 });
  }
  await gw.admin('PATCH', '/settings', { retry_times: 0, channel_failure_threshold: 1000 });
  const user = await gw.admin('POST', '/users', { username: 'streams', balance: 100 });
  const key: string = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
  const openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 });
  const google = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } });

  async function readWithSdk(family: ClientFamily, vendor: Vendor) {
    const model = MODELS[vendor];
    let text = '';
    let error: unknown;
    try {
      switch (family) {
        case 'openai-chat': {
          const messages = [{ role: 'user' as const, content: 'hi' }];
          for await (const chunk of await openai.chat.completions.create({ model, messages, stream: true }))
            text += chunk.choices[0]?.delta.content ?? '';
          break;
        }
        case 'openai-responses': {
          const stream = openai.responses.stream({ model, input: 'hi' });
          // The helper raises a stream's `error` event through `done()`, its events through iteration.
          const done = stream.done().then(
            () => undefined,
            (raised: unknown) => raised,
          );
          for await (const event of stream)
            if (event.type === 'response.output_text.delta') text += event.delta;
          error = await done;
          break;
        }
        case 'anthropic-messages': {
          const messages = [{ role: 'user' as const, content: 'hi' }];
          const stream = await anthropic.messages.create({ model, max_tokens: 256, messages, stream: true });
          for await (const event of stream)
            if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
              text += event.delta.text;
          break;
        }
        case 'gemini': {
          for await (const chunk of await google.models.generateContentStream({ model, contents: 'hi' }))
            for (const part of chunk.candidates?.[0]?.content?.parts ?? []) text += part.text ?? '';
          break;
        }
      }
    } catch (caught) {
      error = caught;
    }
    return { text, error };
  }

  async function readRaw(family: ClientFamily, vendor: Vendor, body: Record<string, unknown> = {}) {
    const model = MODELS[vendor];
    const [path, request, headers] = {
      'openai-chat': [
        '/v1/chat/completions',
        { model, messages: [{ role: 'user', content: 'hi' }], stream: true },
        {},
      ],
      'openai-responses': ['/v1/responses', { model, input: 'hi', stream: true }, {}],
      'anthropic-messages': [
        '/v1/messages',
        { model, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }], stream: true },
        { 'anthropic-version': '2023-06-01' },
      ],
      gemini: [
        `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
        {},
      ],
    }[family] as [string, Record<string, unknown>, Record<string, string>];
    const response = await fetch(`${gw.origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ ...request, ...body }),
    });
    return response.text();
  }

  return {
    gw,
    fakes,
    async logs() {
      await gw.gateway.services.tracker.settled();
      await gw.gateway.services.ledger.storeRecords();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    readWithSdk,
    readRaw,
    async close() {
      await gw.close();
      for (const fake of Object.values(fakes)) await fake.close();
    },
  };
}

/** The text an SDK error carries (the Responses helper raises the `error` event object itself). */
export function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}

/** The upstream's stream for a request, as the fake writes it, one string per event. */
export async function upstreamEvents(fake: FakeUpstream, path: string, body: unknown): Promise<string[]> {
  const response = await fetch(`${fake.origin}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'x-api-key': KEY,
      'x-goog-api-key': KEY,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  fake.clear();
  return text.split(/(?<=\r?\n\r?\n)/).filter(Boolean);
}
