import { once } from 'node:events';
import OpenAI from 'openai';
import type { OpenAIRealtimeError } from 'openai/realtime/internal-base';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_AUDIO_BYTES, fakeSpeechAudio } from '../fakes/fake-audio-bytes.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { plainWebSocketConnection } from '../helpers/plain-websocket-connection.js';

/**
 * The OpenAI fake's Realtime WebSocket, proved with the SDK's `OpenAIRealtimeWS` and with a raw
 * `ws` client speaking as a browser does (the key in a subprotocol).
 */

const apiKey = 'sk-validation';
let fake: FakeOpenAI;
let openai: OpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey });
  openai = new OpenAI({ apiKey, baseURL: `${fake.origin}/v1`, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

/**
 * The SDK's client on the fake, every event it receives (errors apart, as the SDK reports them),
 * and `event(type, count)`: the count-th event of that type once it has arrived. (The SDK's own
 * `emitted()` rejects at the first error event, which several tests provoke on purpose.)
 */
function sdkSession(model = 'gpt-realtime', client = openai) {
  const realtime = new OpenAIRealtimeWS(
    { model, options: { createConnection: plainWebSocketConnection } },
    client,
  );
  const events: RealtimeServerEvent[] = [];
  const errors: OpenAIRealtimeError[] = [];
  const waiters: (() => boolean)[] = [];
  const settle = () => waiters.splice(0).forEach((check) => check() || waiters.push(check));
  realtime.on('event', (event) => {
    events.push(event);
    settle();
  });
  realtime.on('error', (error) => {
    errors.push(error);
    settle();
  });
  const event = <Type extends RealtimeServerEvent['type']>(type: Type, count = 1) =>
    new Promise<Extract<RealtimeServerEvent, { type: Type }>>((resolve) => {
      const check = () => {
        const found = events.filter((item) => item.type === type)[count - 1];
        if (found) resolve(found as Extract<RealtimeServerEvent, { type: Type }>);
        return found !== undefined;
      };
      if (!check()) waiters.push(check);
    });
  const errorCount = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => errors.length >= count && (resolve(), true);
      if (!check()) waiters.push(check);
    });
  const closed = once(realtime.socket, 'close').then(([code, reason]) => ({
    code: code as number,
    reason: String(reason),
  }));
  return { realtime, events, errors, event, errorCount, closed };
}

/** A raw `ws` client: every JSON message it receives, and a wait for one of a type. */
function rawSession(options: { query?: string; protocols?: string[]; headers?: Record<string, string> }) {
  const url = `${fake.origin.replace('http:', 'ws:')}/v1/realtime${options.query ?? '?model=gpt-realtime-mini'}`;
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
  const messages: Record<string, unknown>[] = [];
  const waiting: { type: string; resolve: (message: Record<string, unknown>) => void }[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    messages.push(message);
    for (const waiter of waiting.filter((item) => item.type === message.type)) waiter.resolve(message);
  });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve) => waiting.push({ type, resolve }));
  const closed = once(socket, 'close').then(([code, reason]) => ({
    code: code as number,
    reason: String(reason),
  }));
  return { socket, messages, next, closed };
}

const types = (events: { type: string }[]) => events.map((event) => event.type);

describe('OpenAIRealtimeWS against the fake', () => {
  test('session.update, an item, response.create: text deltas and response.done with usage', async () => {
    const { realtime, events, errors, event, closed } = sdkSession();
    const created = await event('session.created');
    expect(created.session).toMatchObject({
      type: 'realtime',
      model: 'gpt-realtime',
      output_modalities: ['audio'],
    });
    realtime.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.' },
    });
    const updated = await event('session.updated');
    expect(updated.session).toMatchObject({ output_modalities: ['text'], instructions: 'Be brief.' });
    fake.realtime.script({
      text: 'Hi there, friend!',
      usage: {
        inputTokens: 120,
        inputAudioTokens: 0,
        cachedTokens: 64,
        cachedAudioTokens: 0,
        outputTokens: 7,
        outputAudioTokens: 0,
      },
    });
    realtime.send({
      type: 'conversation.item.create',
      item: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Say hi in three words' }],
      },
    });
    realtime.send({ type: 'response.create' });
    const done = await event('response.done');
    await event('rate_limits.updated');
    expect(done.response.status).toBe('completed');
    expect(done.response.usage).toEqual({
      total_tokens: 127,
      input_tokens: 120,
      output_tokens: 7,
      input_token_details: {
        text_tokens: 120,
        audio_tokens: 0,
        image_tokens: 0,
        cached_tokens: 64,
        cached_tokens_details: { text_tokens: 64, audio_tokens: 0, image_tokens: 0 },
      },
      output_token_details: { text_tokens: 7, audio_tokens: 0 },
    });
    const deltas = events.filter((event) => event.type === 'response.output_text.delta');
    expect(deltas.map((event) => event.delta).join('')).toBe('Hi there, friend!');
    expect(types(events)).toEqual([
      'session.created',
      'session.updated',
      'conversation.item.added',
      'conversation.item.done',
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      ...deltas.map(() => 'response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'conversation.item.done',
      'response.output_item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    const connection = await fake.realtime.connection();
    expect(connection.request.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(connection.request.query.get('model')).toBe('gpt-realtime');
    expect(types(connection.events as { type: string }[])).toEqual([
      'session.update',
      'conversation.item.create',
      'response.create',
    ]);
    realtime.close();
    expect(await closed).toEqual({ code: 1000, reason: 'OK' });
    expect(await connection.closed).toEqual({ code: 1000, reason: 'OK' });
    expect(errors).toEqual([]);
  });

  test('audio by default: transcript and PCM deltas, byte for byte', async () => {
    const { realtime, events, event } = sdkSession('gpt-realtime-mini');
    await event('session.created');
    realtime.send({ type: 'response.create' });
    const done = await event('response.done');
    expect(done.response.output_modalities).toEqual(['audio']);
    const audio = events.flatMap((event) =>
      event.type === 'response.output_audio.delta' ? [Buffer.from(event.delta, 'base64')] : [],
    );
    expect(Buffer.concat(audio)).toEqual(fakeSpeechAudio('pcm', DEFAULT_AUDIO_BYTES));
    const transcript = events.flatMap((event) =>
      event.type === 'response.output_audio_transcript.delta' ? [event.delta] : [],
    );
    expect(transcript.join('')).toBe('Hello from fake OpenAI.');
    expect(done.response.usage?.output_token_details).toEqual({ text_tokens: 5, audio_tokens: 7 });
    realtime.close();
  });

  test('input audio: appended and committed as a user item; an empty commit is an error event', async () => {
    const { realtime, events, errors, event, errorCount } = sdkSession();
    await event('session.created');
    realtime.send({ type: 'input_audio_buffer.commit' });
    await errorCount(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error?.code).toBe('input_audio_buffer_commit_empty');
    realtime.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(9600).toString('base64') });
    realtime.send({ type: 'input_audio_buffer.commit' });
    const committed = await event('input_audio_buffer.committed');
    const added = await event('conversation.item.added');
    expect(added.item).toMatchObject({
      id: committed.item_id,
      role: 'user',
      content: [{ type: 'input_audio' }],
    });
    expect(types(events)).toContain('conversation.item.done');
    realtime.close();
  });

  test('a held response waits for release; a second response.create meanwhile is refused', async () => {
    const { realtime, events, errors, event, errorCount } = sdkSession();
    await event('session.created');
    fake.realtime.script({ hold: true, usage: { inputTokens: 50, outputTokens: 9 } });
    realtime.send({ type: 'response.create', response: { output_modalities: ['text'] } });
    await event('response.output_item.done');
    realtime.send({ type: 'response.create' });
    await errorCount(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(types(events)).not.toContain('response.done');
    expect(errors[0]?.error?.code).toBe('conversation_already_has_active_response');
    const connection = await fake.realtime.connection();
    expect(await connection.received('response.create', 2)).toEqual({ type: 'response.create' });
    connection.release();
    const done = await event('response.done');
    expect(done.response.usage).toMatchObject({ input_tokens: 50, output_tokens: 9, total_tokens: 59 });
    realtime.close();
  });

  test('response.cancel ends a held response as cancelled, with its usage', async () => {
    const { realtime, event } = sdkSession();
    await event('session.created');
    fake.realtime.script({ hold: true });
    realtime.send({ type: 'response.create' });
    await event('response.output_item.done');
    realtime.send({ type: 'response.cancel' });
    const done = await event('response.done');
    expect(done.response).toMatchObject({
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'client_cancelled' },
      usage: { input_tokens: 20, output_tokens: 12 },
    });
    realtime.close();
  });

  test('bad frames get error events and the socket stays open', async () => {
    const { realtime, errors, event, errorCount } = sdkSession();
    await event('session.created');
    realtime.socket.send('not json');
    realtime.socket.send(JSON.stringify({ type: 'nope', event_id: 'evt_1' }));
    realtime.socket.send(Buffer.from([1, 2, 3]));
    realtime.socket.send(JSON.stringify({ type: 'session.update', session: { instructions: 'x' } }));
    realtime.socket.send(JSON.stringify({ type: 'session.update', session: { type: 'realtime', bogus: 1 } }));
    realtime.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Still here.' } });
    const updated = await event('session.updated');
    expect(updated.session).toMatchObject({ instructions: 'Still here.' });
    await errorCount(5);
    const details = errors.map((error) => error.error);
    expect(details).toEqual([
      expect.objectContaining({ code: 'invalid_json', type: 'invalid_request_error', event_id: null }),
      expect.objectContaining({ code: 'invalid_value', param: 'type', event_id: 'evt_1' }),
      expect.objectContaining({ code: 'invalid_event' }),
      expect.objectContaining({ code: 'missing_required_parameter', param: 'session.type' }),
      expect.objectContaining({ code: 'unknown_parameter', param: 'session.bogus' }),
    ]);
    expect(details[1]?.message).toContain("Invalid value: 'nope'. Supported values are: 'session.update'");
    const connection = await fake.realtime.connection();
    expect(connection.events.slice(0, 3)).toEqual([
      'not json',
      { type: 'nope', event_id: 'evt_1' },
      Buffer.from([1, 2, 3]),
    ]);
    realtime.close();
  });

  test('the server closes with a given code', async () => {
    const { event, closed } = sdkSession();
    await event('session.created');
    (await fake.realtime.connection()).close(1011, 'upstream went away');
    expect(await closed).toEqual({ code: 1011, reason: 'upstream went away' });
  });

  test('a wrong key: an invalid_api_key error event, then close 3000', async () => {
    const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${fake.origin}/v1`, maxRetries: 0 });
    const { errors, closed } = sdkSession('gpt-realtime', stranger);
    expect(await closed).toEqual({ code: 3000, reason: 'invalid_request_error.invalid_api_key' });
    expect(errors[0]?.error?.code).toBe('invalid_api_key');
  });
});

describe('a browser-style client (raw ws)', () => {
  test('the key as a subprotocol; `realtime` echoed; pings answered', async () => {
    const { socket, next } = rawSession({ protocols: ['realtime', `openai-insecure-api-key.${apiKey}`] });
    const created = await next('session.created');
    expect(socket.protocol).toBe('realtime');
    expect(created.session).toMatchObject({ model: 'gpt-realtime-mini' });
    const connection = await fake.realtime.connection();
    expect(connection.protocols).toEqual(['realtime', `openai-insecure-api-key.${apiKey}`]);
    expect(connection.protocol).toBe('realtime');
    socket.ping(Buffer.from('are you there'));
    const [pong] = await once(socket, 'pong');
    expect(String(pong)).toBe('are you there');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/realtime' });
    socket.close();
  });

  test.each([
    [
      'a wrong key in the subprotocol',
      3000,
      'invalid_request_error.invalid_api_key',
      { protocols: ['realtime', 'openai-insecure-api-key.sk-wrong'] },
    ],
    ['no key', 3000, 'invalid_request_error', {}],
    [
      'an unknown model',
      4000,
      'invalid_request_error.invalid_model',
      { query: '?model=gpt-nope', headers: { authorization: `Bearer ${apiKey}` } },
    ],
    [
      'no model',
      4000,
      'invalid_request_error.missing_model',
      { query: '', headers: { authorization: `Bearer ${apiKey}` } },
    ],
    [
      'the beta header',
      4000,
      'invalid_request_error.beta_api_shape_disabled',
      { headers: { authorization: `Bearer ${apiKey}`, 'openai-beta': 'realtime=v1' } },
    ],
  ])('%s: upgraded, then one error event and close %i', async (_, code, reason, options) => {
    const { messages, closed } = rawSession(options);
    expect(await closed).toEqual({ code, reason });
    expect(messages).toEqual([
      {
        type: 'error',
        event_id: expect.stringMatching(/^event_/),
        error: expect.objectContaining({ type: 'invalid_request_error', code: reason.split('.')[1] ?? null }),
      },
    ]);
  });

  test('a scripted refusal answers the upgrade itself with an HTTP error', async () => {
    fake.script({ type: 'error', status: 401, message: 'Invalid authorization' });
    const socket = new WebSocket(`${fake.origin.replace('http:', 'ws:')}/v1/realtime?model=gpt-realtime`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    socket.on('error', () => undefined);
    const [, response] = (await once(socket, 'unexpected-response')) as [
      unknown,
      import('node:http').IncomingMessage,
    ];
    expect(response.statusCode).toBe(401);
    let body = '';
    for await (const chunk of response) body += String(chunk);
    expect(JSON.parse(body)).toEqual({
      error: {
        message: 'Invalid authorization',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect(fake.realtime.connections).toEqual([]);
    socket.terminate();
  });

  test('no WebSocket elsewhere: 404 at the upgrade', async () => {
    const socket = new WebSocket(`${fake.origin.replace('http:', 'ws:')}/v1/responses`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    socket.on('error', () => undefined);
    const [, response] = (await once(socket, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(404);
    socket.terminate();
  });
});
