import http from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeSpeechAudio } from '../fakes/fake-audio-bytes.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * `POST /v1/audio/speech` (admin-api section 14) with the official `openai` SDK as the client: the
 * audio streams through unchanged with the upstream's content type, and is billed by the characters
 * of `input` at `per_million_characters`, or by the tokens an SSE reply reports; a client that
 * leaves mid-speech is charged all the same.
 */
const UPSTREAM_KEY = 'speech-upstream-key';
const nano = (usd: number) => Math.round(usd * 1e9);

let gw: TestGateway;
let upstream: FakeUpstream;
let openai: OpenAI;
let key: string;
let userId: number;
let speechChannel: number;

const settled = async () => {
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
};
const lastLog = async () => {
  await settled();
  return (await gw.admin('GET', '/logs')).body.data[0];
};
const balance = async () => {
  await settled();
  return nano((await gw.admin('GET', `/users/${userId}`)).body.balance);
};

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
  speechChannel = (
    await gw.admin('POST', '/channels', {
      name: 'speech',
      type: 'openai',
      base_url: upstream.origin,
      keys: [UPSTREAM_KEY],
      models: ['tts-1', 'gpt-4o-mini-tts', 'voice'],
      model_mapping: { voice: 'gpt-4o-mini-tts' },
      endpoints: ['audio-speech'],
    })
  ).body.id;
  // A chat channel serving a model it does not declare speech for.
  await gw.admin('POST', '/channels', {
    name: 'chat',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-4o'],
  });
  await gw.admin('PUT', '/prices/tts-1', { input: 0, output: 0, per_million_characters: 15 });
  await gw.admin('PUT', '/prices/gpt-4o-mini-tts', { input: 0.6, output: 1, output_audio: 12 });
  await gw.admin('PUT', '/prices/voice', { input: 0.6, output: 1, output_audio: 12 });
  await gw.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
  const user = await gw.admin('POST', '/users', { username: 'speaker', balance: 10 });
  userId = user.body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

describe('speech', () => {
  test('the audio reaches the SDK byte for byte, with the upstream content type, billed by characters', async () => {
    const before = await balance();
    upstream.script({ type: 'reply', audioBytes: 20_000, audioChunkBytes: 4_000 });
    const input = 'Hello, wörld! 👋';
    const response = await openai.audio.speech.create({
      model: 'tts-1',
      input,
      voice: 'alloy',
      response_format: 'wav',
    });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeSpeechAudio('wav', 20_000));
    expect(upstream.requests.at(-1)!.body).toEqual({
      model: 'tts-1',
      input,
      voice: 'alloy',
      response_format: 'wav',
    });

    // 15 characters (the emoji is one, two UTF-16 units) x 15 USD per million.
    const characters = [...input].length;
    expect(characters).toBe(15);
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: 'audio-speech', model: 'tts-1', status_code: 200 });
    expect(log.characters).toBe(15);
    expect(nano(log.cost)).toBe(Math.round((characters * nano(15)) / 1e6));
    expect(before - (await balance())).toBe(nano(log.cost));
  });

  test('with stream_format "sse", the events pass through and the reported tokens are billed', async () => {
    upstream.script({ type: 'reply', usage: { inputTokens: 12, outputTokens: 900 } });
    const response = await openai.audio.speech.create({
      model: 'voice',
      input: 'Say something.',
      voice: 'coral',
      stream_format: 'sse',
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    expect(text).toContain('"type":"speech.audio.delta"');
    expect(text).toContain('"type":"speech.audio.done"');
    expect(upstream.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o-mini-tts' });
    const log = await lastLog();
    expect(log).toMatchObject({ model: 'voice', prompt_tokens: 12, completion_tokens: 900 });
    // 12 text tokens x 0.6 + 900 audio tokens x 12, per million.
    expect(nano(log.cost)).toBe(Math.round((12 * nano(0.6) + 900 * nano(12)) / 1e6));
  });

  test('a model billed by tokens alone is asked for its events, and the client still gets the audio', async () => {
    upstream.script({
      type: 'reply',
      audioBytes: 9_000,
      audioChunkBytes: 2_000,
      usage: { inputTokens: 7, outputTokens: 640 },
    });
    const response = await openai.audio.speech.create({
      model: 'voice',
      input: 'Read this aloud.',
      voice: 'coral',
      response_format: 'flac',
    });
    expect(response.headers.get('content-type')).toBe('audio/flac');
    expect(Buffer.from(await response.arrayBuffer()).equals(fakeSpeechAudio('flac', 9_000))).toBe(true);
    expect(upstream.requests.at(-1)!.body).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Read this aloud.',
      voice: 'coral',
      response_format: 'flac',
      stream_format: 'sse',
    });
    const log = await lastLog();
    expect(log).toMatchObject({ model: 'voice', prompt_tokens: 7, completion_tokens: 640 });
    expect(nano(log.cost)).toBe(Math.round((7 * nano(0.6) + 640 * nano(12)) / 1e6));
  });

  test('a client that leaves mid-speech is charged for the characters it asked to hear', async () => {
    upstream.script({ type: 'reply', audioBytes: 400_000, audioChunkBytes: 4_000, chunkDelayMs: 20 });
    const input = 'x'.repeat(1000);
    const firstBytes = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${gw.origin}/v1/audio/speech`,
        { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            request.destroy();
            resolve(chunk.length);
          });
        },
      );
      request.on('error', () => undefined);
      request.end(JSON.stringify({ model: 'tts-1', input, voice: 'alloy' }));
      setTimeout(() => reject(new Error('no audio')), 5_000);
    });
    expect(firstBytes).toBeGreaterThan(0);
    const log = await waitFor(lastLog, (newest) => newest.error !== null, {
      timeoutMs: 5_000,
      what: 'the cut request recorded',
    });
    expect(log.error).toBe('client closed the connection');
    expect(nano(log.cost)).toBe(Math.round((1000 * nano(15)) / 1e6));
  });

  test('the body is checked before anything is charged', async () => {
    const before = await balance();
    const send = async (body: unknown) => {
      const response = await fetch(`${gw.origin}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, error: ((await response.json()) as any).error };
    };
    expect(await send({ model: 'tts-1', voice: 'alloy' })).toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('field input is required') },
    });
    expect(await send({ model: 'tts-1', input: 'hi' })).toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('field voice is required') },
    });
    expect(await send({ model: 'tts-1', input: 5, voice: 'alloy' })).toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('field input must be a string') },
    });
    expect(await send({ model: 'tts-1', input: 'hi', voice: 'alloy', speed: 'fast' })).toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('field speed must be a number') },
    });
    // A model whose channels do not declare speech.
    expect((await send({ model: 'gpt-4o', input: 'hi', voice: 'alloy' })).status).toBe(503);
    // The upstream's own refusal reaches the client as it was.
    const refused = await send({ model: 'tts-1', input: 'hi', voice: 'alloy', stream_format: 'sse' });
    expect(refused.status).toBe(400);
    expect(refused.error.param).toBe('stream_format');
    expect(await balance()).toBe(before);
  });

  test('the channel test of a speech-only channel asks for two characters of raw audio', async () => {
    const result = await gw.admin('POST', `/channels/${speechChannel}/test`);
    expect(result.body).toMatchObject({ ok: true, error: null });
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/audio/speech',
      body: { model: 'tts-1', input: 'hi', voice: 'alloy', response_format: 'pcm' },
    });
  });
});
