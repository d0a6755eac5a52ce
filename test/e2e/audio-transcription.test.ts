import { readFileSync } from 'node:fs';
import http from 'node:http';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeAzure } from '../fakes/fake-azure.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { makeWav } from '../helpers/make-wav.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * `POST /v1/audio/transcriptions` and `/translations` (admin-api section 14) with the official
 * `openai` SDK as the client: the form reaches the upstream with the file's bytes unchanged, every
 * answer format comes back as the upstream gave it, and the bill never depends on that format: by
 * the file's own duration for a model priced per minute, by the reported tokens otherwise.
 */
const UPSTREAM_KEY = 'transcription-upstream-key';
const nano = (usd: number) => Math.round(usd * 1e9);
const fixture = (name: string) => readFileSync(new URL(`../fixtures/audio/${name}`, import.meta.url));
/** 3 s of 16 kHz mono 16-bit PCM. */
const wav = makeWav({ seconds: 3, sampleRate: 16_000, channels: 1, bitsPerSample: 16 });

let gw: TestGateway;
let upstream: FakeUpstream;
let openai: OpenAI;
let key: string;
let userId: number;
let transcriptionChannel: number;

const settled = async () => {
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
};
const lastLog = async () => {
  await settled();
  return (await gw.admin('GET', '/logs')).body.data[0];
};
const logCount = async () => {
  await settled();
  return (await gw.admin('GET', '/logs')).body.total.requests as number;
};
const balance = async () => {
  await settled();
  return nano((await gw.admin('GET', `/users/${userId}`)).body.balance);
};
/** This process's uploads waiting in the spool. */
const spooledFiles = async () =>
  (await readdir(join(tmpdir(), 'model-gateway-uploads')).catch(() => [] as string[])).filter((name) =>
    name.startsWith(`${process.pid}-`),
  );
/** Whisper's price: 0.006 USD a minute. */
const perMinuteCost = (seconds: number) => Math.round((seconds * nano(0.006)) / 60);

const post = async (path: string, body: string | FormData, headers: Record<string, string> = {}) => {
  const response = await fetch(`${gw.origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, error: text.startsWith('{') ? JSON.parse(text).error : undefined };
};

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
  transcriptionChannel = (
    await gw.admin('POST', '/channels', {
      name: 'ears',
      type: 'openai',
      base_url: upstream.origin,
      keys: [UPSTREAM_KEY],
      models: ['whisper-1', 'gpt-4o-transcribe', 'listener'],
      model_mapping: { listener: 'whisper-1' },
      endpoints: ['audio-transcription'],
    })
  ).body.id;
  await gw.admin('PUT', '/prices/whisper-1', { input: 0, output: 0, per_minute: 0.006 });
  await gw.admin('PUT', '/prices/listener', { input: 0, output: 0, per_minute: 0.006 });
  await gw.admin('PUT', '/prices/gpt-4o-transcribe', { input: 2.5, output: 10, input_audio: 6 });
  const user = await gw.admin('POST', '/users', { username: 'listener', balance: 10 });
  userId = user.body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

describe('transcriptions priced per minute', () => {
  test('the file reaches the upstream byte for byte; billed by its duration', async () => {
    const before = await balance();
    const transcription = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'meeting.wav', { type: 'audio/wav' }),
      model: 'whisper-1',
      language: 'en',
      temperature: 0.2,
    });
    expect(transcription.text).toBe('Hello from fake OpenAI.');
    const request = upstream.requests.at(-1)!;
    expect(request.refused).toBeUndefined();
    expect(request.multipart?.files).toEqual([
      { name: 'file', filename: 'meeting.wav', contentType: 'audio/wav', bytes: wav },
    ]);
    expect(request.body).toEqual({ model: 'whisper-1', language: 'en', temperature: '0.2' });
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: 'audio-transcriptions', model: 'whisper-1', status_code: 200 });
    expect(log.audio_seconds).toBe(3);
    expect(nano(log.cost)).toBe(perMinuteCost(3));
    expect(before - (await balance())).toBe(nano(log.cost));
  });

  test('every response format comes back as the upstream sent it, and costs the same', async () => {
    const costs: number[] = [];
    const file = await toFile(wav, 'speech.wav');
    for (const format of ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const) {
      const answer = await openai.audio.transcriptions.create({
        file,
        model: 'whisper-1',
        response_format: format,
      });
      if (format === 'text') expect(answer).toBe('Hello from fake OpenAI.\n');
      if (format === 'srt')
        expect(answer).toBe('1\n00:00:00,000 --> 00:00:03,000\nHello from fake OpenAI.\n\n');
      if (format === 'vtt')
        expect(answer).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nHello from fake OpenAI.\n\n');
      if (format === 'verbose_json') expect(answer).toMatchObject({ task: 'transcribe', duration: 3 });
      costs.push(nano((await lastLog()).cost));
    }
    expect(new Set(costs)).toEqual(new Set([perMinuteCost(3)]));
  });

  test.each([
    ['tone-2s.mp3', 'audio/mpeg', 2],
    ['tone-2s.m4a', 'audio/mp4', 2],
    ['tone-1.5s.ogg', 'audio/ogg', 1.5],
    ['tone-1s.flac', 'audio/flac', 1],
    ['tone-1.5s.webm', 'audio/webm', 1.5],
  ])('%s is billed by the duration read from the file', async (name, type, seconds) => {
    await openai.audio.transcriptions.create({
      file: await toFile(fixture(name), name, { type }),
      model: 'whisper-1',
    });
    expect(upstream.requests.at(-1)!.multipart?.files[0]?.bytes).toEqual(fixture(name));
    // Encoders pad a little; the duration read is the file's, within a frame or two.
    expect(nano((await lastLog()).cost) / perMinuteCost(seconds)).toBeCloseTo(1, 1);
  });

  test('a file whose duration cannot be read is refused before anything is sent or charged', async () => {
    const before = await balance();
    const sent = upstream.requests.length;
    const junk = Buffer.from('this is not audio at all, just some text pretending to be one'.repeat(50));
    const refused = await openai.audio.transcriptions
      .create({ file: await toFile(junk, 'speech.mp3', { type: 'audio/mpeg' }), model: 'whisper-1' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('invalid_request');
    expect((refused as Error).message).toContain('the duration of the audio file cannot be read');
    expect(upstream.requests.length).toBe(sent);
    expect(await balance()).toBe(before);
  });

  test('a mapped model goes upstream under its channel name; translations are relayed too', async () => {
    const translation = await openai.audio.translations.create({
      file: await toFile(wav, 'bonjour.wav'),
      model: 'listener',
    });
    expect(translation.text).toBe('Hello from fake OpenAI.');
    const request = upstream.requests.at(-1)!;
    expect(request.path).toBe('/v1/audio/translations');
    expect(request.body).toEqual({ model: 'whisper-1' });
    expect(request.multipart?.files[0]?.bytes).toEqual(wav);
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: 'audio-translations', model: 'listener' });
    expect(nano(log.cost)).toBe(perMinuteCost(3));
  });
});

describe('transcriptions priced by tokens', () => {
  const tokenCost = (input: number, audio: number, output: number) =>
    Math.round(((input - audio) * nano(2.5) + audio * nano(6) + output * nano(10)) / 1e6);

  test('billed on the reported tokens, audio at input_audio', async () => {
    upstream.script({ type: 'reply', usage: { inputTokens: 40, inputAudioTokens: 31, outputTokens: 12 } });
    const transcription = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'gpt-4o-transcribe',
      prompt: 'A greeting.',
    });
    expect(transcription.usage).toMatchObject({ type: 'tokens', input_tokens: 40, output_tokens: 12 });
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 40, completion_tokens: 12 });
    expect(nano(log.cost)).toBe(tokenCost(40, 31, 12));
  });

  test('stream=true: the transcript events pass through, and the usage of the last one is billed', async () => {
    upstream.script({ type: 'reply', usage: { inputTokens: 50, inputAudioTokens: 45, outputTokens: 9 } });
    const stream = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'gpt-4o-transcribe',
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'transcript.text.delta') text += event.delta;
    }
    expect(text).toBe('Hello from fake OpenAI.');
    expect(types.at(-1)).toBe('transcript.text.done');
    const log = await lastLog();
    expect(log).toMatchObject({ stream: true, prompt_tokens: 50, completion_tokens: 9 });
    expect(nano(log.cost)).toBe(tokenCost(50, 45, 9));
  });

  test('a reply without usage is billed on audio tokens estimated from the duration', async () => {
    upstream.script({ type: 'reply', omitUsage: true });
    await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'gpt-4o-transcribe',
    });
    const log = await lastLog();
    // 3 s at 1,000 audio tokens a minute.
    expect(log.prompt_tokens).toBe(50);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(nano(log.cost)).toBe(tokenCost(50, 50, log.completion_tokens));
  });
});

describe('the form', () => {
  test('anything but a well-formed form with one file named "file" is refused with 400, uncharged', async () => {
    const before = await balance();
    const logs = await logCount();
    const notForm = await post('/v1/audio/transcriptions', JSON.stringify({ model: 'whisper-1' }), {
      'content-type': 'application/json',
    });
    expect(notForm).toMatchObject({ status: 400, error: { code: 'invalid_request' } });
    expect(notForm.error.message).toContain('multipart/form-data');

    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    const missing = await post('/v1/audio/transcriptions', noFile);
    expect(missing).toMatchObject({ status: 400, error: { code: 'invalid_request' } });
    expect(missing.error.message).toContain('field file is required');

    const twoFiles = new FormData();
    twoFiles.append('model', 'whisper-1');
    twoFiles.append('file', new Blob([wav]), 'a.wav');
    twoFiles.append('file', new Blob([wav]), 'b.wav');
    const two = await post('/v1/audio/transcriptions', twoFiles);
    expect(two.status).toBe(400);
    expect(two.error.message).toContain('Invalid multipart/form-data body: only one file may be sent');

    const cut = await post(
      '/v1/audio/transcriptions',
      '--b\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--b\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
      { 'content-type': 'multipart/form-data; boundary=b' },
    );
    expect(cut.status).toBe(400);
    expect(cut.error.message).toContain('Invalid multipart/form-data body');

    const longPrompt = new FormData();
    longPrompt.append('model', 'whisper-1');
    longPrompt.append('prompt', 'x'.repeat(1024 * 1024 + 1));
    longPrompt.append('file', new Blob([wav]), 'a.wav');
    const long = await post('/v1/audio/transcriptions', longPrompt);
    expect(long.status).toBe(400);
    expect(long.error.message).toContain('field prompt is longer than 1048576 bytes');

    const manyFields = new FormData();
    for (let index = 0; index < 65; index += 1) manyFields.append('include[]', 'logprobs');
    manyFields.append('file', new Blob([wav]), 'a.wav');
    const many = await post('/v1/audio/transcriptions', manyFields);
    expect(many.status).toBe(400);
    expect(many.error.message).toContain('more than 64 fields');

    const noModel = new FormData();
    noModel.append('file', new Blob([wav]), 'a.wav');
    expect((await post('/v1/audio/transcriptions', noModel)).status).toBe(400);
    expect(await balance()).toBe(before);
    expect(await logCount()).toBe(logs);
  });

  test('a body over body_limit_bytes is refused with 413; no upload is left on disk', async () => {
    await gw.admin('PATCH', '/settings', { body_limit_bytes: 64 * 1024 });
    try {
      const big = new FormData();
      big.append('model', 'whisper-1');
      big.append(
        'file',
        new Blob([makeWav({ seconds: 4, sampleRate: 16_000, channels: 1, bitsPerSample: 16 })]),
        'big.wav',
      );
      expect(await post('/v1/audio/transcriptions', big)).toMatchObject({
        status: 413,
        error: { code: 'request_body_too_large' },
      });
    } finally {
      await gw.admin('PATCH', '/settings', { body_limit_bytes: 134_217_728 });
    }
    expect(await spooledFiles()).toEqual([]);
  });

  test('a client that leaves mid-upload is charged nothing, sends nothing upstream, and leaves no file', async () => {
    const before = await balance();
    const logs = await logCount();
    const sent = upstream.requests.length;
    const boundary = 'cut-upload';
    const head =
      `--${boundary}\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\ncontent-type: audio/wav\r\n\r\n`;
    const request = http.request(`${gw.origin}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + 1_000_000),
      },
    });
    request.on('error', () => undefined);
    request.write(head);
    request.write(wav.subarray(0, 50_000));
    await waitFor(spooledFiles, (files) => files.length === 1, {
      timeoutMs: 5_000,
      what: 'the upload spooled',
    });
    request.destroy();
    await waitFor(spooledFiles, (files) => files.length === 0, {
      timeoutMs: 5_000,
      what: 'the spool emptied',
    });
    expect(upstream.requests.length).toBe(sent);
    expect(await logCount()).toBe(logs);
    expect(await balance()).toBe(before);
  });

  test('a bad key is refused before the body is read', async () => {
    const response = await fetch(`${gw.origin}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-wrong' },
      body: new FormData(),
    });
    expect(response.status).toBe(401);
  });
});

describe('channels', () => {
  test('an Azure deployment takes the form at its dated audio path', async () => {
    const azure = await startFakeAzure({ apiKey: 'azure-key', deployments: { 'whisper-east': 'whisper-1' } });
    try {
      await gw.admin('POST', '/channels', {
        name: 'azure-ears',
        type: 'azure',
        base_url: azure.origin,
        keys: ['azure-key'],
        models: ['whisper-azure'],
        model_mapping: { 'whisper-azure': 'whisper-east' },
        config: { api_version: '2024-06-01' },
        endpoints: ['audio-transcription'],
      });
      await gw.admin('PUT', '/prices/whisper-azure', { input: 0, output: 0, per_minute: 0.006 });
      const transcription = await openai.audio.transcriptions.create({
        file: await toFile(wav, 'speech.wav'),
        model: 'whisper-azure',
        response_format: 'text',
      });
      expect(transcription).toBe('Hello from fake Azure OpenAI.\n');
      const request = azure.requests.at(-1)!;
      expect(request.refused).toBeUndefined();
      expect(request.path).toBe('/openai/deployments/whisper-east/audio/transcriptions');
      expect(request.query.get('api-version')).toBe('2024-06-01');
      expect(request.multipart?.files[0]?.bytes).toEqual(wav);
      expect(nano((await lastLog()).cost)).toBe(perMinuteCost(3));
    } finally {
      await azure.close();
    }
  });

  test('the channel test of a transcription-only channel sends a short WAV', async () => {
    const result = await gw.admin('POST', `/channels/${transcriptionChannel}/test`);
    expect(result.body).toMatchObject({ ok: true, error: null });
    const request = upstream.requests.at(-1)!;
    expect(request.path).toBe('/v1/audio/transcriptions');
    expect(request.refused).toBeUndefined();
    expect(request.multipart?.files[0]?.filename).toBe('probe.wav');
  });
});
