import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { addAnthropicChannel, startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { signedInClient } from '../helpers/console-client.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';

/**
 * Bodies on request (admin-api section 12): stored only for keys (or groups) that ask, as the
 * client sent and received them, cut at `body_log_max_bytes`, never with a credential, with
 * personal data cut under `redact_pii`, and read through `GET /api/logs/{id}` and
 * `GET /api/me/logs/{id}`.
 */
const PASSWORD = 'correct horse battery';
const SECRET = `sk-proj-${'Ab1'.repeat(12)}`;

interface Detail {
  id: number;
  request_id: string;
  user_id: number;
  status_code: number;
  request_body: string | null;
  response_body: string | null;
  body_truncated: boolean;
}

describe.each(gatewayStoreVariants())('logged bodies on $name', (variant) => {
  let fx: RelayFixture;
  let claude: FakeUpstream;
  beforeAll(async () => {
    fx = await startRelayFixture({ balance: 100, gateway: variant.options });
    claude = await addAnthropicChannel(fx);
    await fx.gw.admin('PATCH', `/users/${fx.userId}`, { password: PASSWORD });
  });
  afterAll(async () => {
    await fx?.close();
    await claude?.close();
    await variant.cleanUp();
  });
  beforeEach(async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: null });
    await fx.gw.admin('PUT', '/groups/default', { log_bodies: false });
    await fx.gw.admin('PATCH', '/settings', { body_log_max_bytes: 1_048_576, redact_pii: 'off' });
    fx.upstream.clear();
  });

  /** Sends `body` as it is and returns what the client got, as text. */
  const send = async (body: string, key = fx.key) => {
    const answer = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    return {
      status: answer.status,
      text: await answer.text(),
      requestId: answer.headers.get('x-gateway-request-id')!,
    };
  };

  /** The record of the request, with its bodies, once records and bodies are stored. */
  const detail = async (requestId: string): Promise<Detail> => {
    const logs = await fx.logs();
    const log = logs.find((candidate: { request_id: string }) => candidate.request_id === requestId);
    expect(log, `a usage record of ${requestId}`).toBeDefined();
    const response = await fx.gw.admin('GET', `/logs/${log.id}`);
    expect(response.status).toBe(200);
    return response.body as Detail;
  };

  const chatBody = (content: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content }], ...extra });

  test('nothing is stored by default: the record has null bodies', async () => {
    const sent = await send(chatBody('hello'));
    expect(sent.status).toBe(200);
    const record = await detail(sent.requestId);
    expect(record).toMatchObject({ request_body: null, response_body: null, body_truncated: false });
    expect(record.status_code).toBe(200);
  });

  test('a key with log_bodies stores the request as received and the reply as sent', async () => {
    expect((await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true })).body.log_bodies).toBe(
      true,
    );
    // Spacing and member order as the client wrote them.
    const body = `{ "messages": [{"role":"user","content":"tell me a joke"}],\n  "model":"gpt-4o", "max_tokens": 16 }`;
    const sent = await send(body);
    expect(sent.status).toBe(200);
    const record = await detail(sent.requestId);
    expect(record.request_body).toBe(body);
    expect(record.response_body).toBe(sent.text);
    expect(record.body_truncated).toBe(false);
  });

  test('a stream is stored as the SSE text the client read', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const sent = await send(chatBody('stream please', { stream: true }));
    expect(sent.text).toContain('data: [DONE]');
    const record = await detail(sent.requestId);
    expect(record.response_body).toBe(sent.text);
  });

  test('a stream converted from another protocol is stored as the client read it', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const sent = await send(chatBody('stream from claude', { model: 'claude-sonnet-4-5', stream: true }));
    expect(sent.text).toContain('chat.completion.chunk');
    const record = await detail(sent.requestId);
    expect(record.response_body).toBe(sent.text);
  });

  test('with the official SDKs: a chat stream and an Anthropic message are stored as they got them', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const stream = await fx.openai.chat.completions
      .create({
        model: 'gpt-4o',
        max_tokens: 16,
        stream: true,
        messages: [{ role: 'user', content: 'count to three' }],
      })
      .withResponse();
    let streamed = '';
    for await (const chunk of stream.data) streamed += chunk.choices[0]?.delta.content ?? '';
    const streamRecord = await detail(stream.response.headers.get('x-gateway-request-id')!);
    expect(JSON.parse(streamRecord.request_body!)).toMatchObject({ stream: true, model: 'gpt-4o' });
    const storedText = streamRecord
      .response_body!.split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)).choices[0]?.delta?.content ?? '')
      .join('');
    expect(storedText).toBe(streamed);

    const anthropic = new Anthropic({ apiKey: fx.key, baseURL: fx.gw.origin, maxRetries: 0 });
    const message = await anthropic.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    const messageRecord = await detail(message.response.headers.get('x-gateway-request-id')!);
    expect(JSON.parse(messageRecord.response_body!)).toEqual(message.data);
  });

  test('a key follows its group when its own setting is null, and overrides it otherwise', async () => {
    await fx.gw.admin('PUT', '/groups/default', { log_bodies: true });
    const followed = await detail((await send(chatBody('group on'))).requestId);
    expect(followed.request_body).toContain('group on');

    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: false });
    const overridden = await detail((await send(chatBody('key off'))).requestId);
    expect(overridden.request_body).toBeNull();

    await fx.gw.admin('PUT', '/groups/default', { log_bodies: false });
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const own = await detail((await send(chatBody('key on'))).requestId);
    expect(own.request_body).toContain('key on');
  });

  test('credentials in a body are never stored; the upstream still gets what was sent', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const content = `my key is ${SECRET}\nand mine ${fx.key}, header Authorization: Bearer abcdefgh12345678`;
    const sent = await send(chatBody(content));
    const record = await detail(sent.requestId);
    expect(record.request_body).not.toContain(SECRET);
    expect(record.request_body).not.toContain(fx.key.slice(3));
    expect(record.request_body).not.toContain('abcdefgh12345678');
    expect(record.request_body).toContain('my key is [REDACTED:secret]\\nand mine [REDACTED:secret]');
    expect(record.request_body).toContain('Bearer [REDACTED:secret]');
    expect(JSON.stringify(fx.upstream.requests[0]!.body)).toContain(SECRET);
  });

  test('redact_pii: logs cuts personal data from the stored bodies only', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    await fx.gw.admin('PATCH', '/settings', { redact_pii: 'logs' });
    const sent = await send(chatBody('write to jane.doe@example.com about card 4111 1111 1111 1111'));
    const record = await detail(sent.requestId);
    expect(record.request_body).toContain('write to [REDACTED:email] about card [REDACTED:card]');
    expect(JSON.stringify(fx.upstream.requests[0]!.body)).toContain('jane.doe@example.com');
  });

  test('bodies past body_log_max_bytes are cut at a character and flagged', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    await fx.gw.admin('PATCH', '/settings', { body_log_max_bytes: 1024 });
    fx.upstream.script({ type: 'reply', text: 'a long answer '.repeat(200) });
    const sent = await send(chatBody('é'.repeat(2000), { stream: true }));
    expect(sent.status).toBe(200);
    const record = await detail(sent.requestId);
    expect(record.body_truncated).toBe(true);
    expect(Buffer.byteLength(record.request_body!)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(record.request_body!)).toBeGreaterThan(1000);
    expect(record.request_body).not.toContain('\uFFFD');
    expect(sent.text.startsWith(record.response_body!)).toBe(true);
  });

  test('an upstream failure after the reservation: the error the client got is stored', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    fx.upstream.script({ type: 'error', status: 400, message: 'the upstream refuses this' });
    const sent = await send(chatBody('fail'));
    expect(sent.status).toBe(400);
    expect(sent.text).toContain('the upstream refuses this');
    const record = await detail(sent.requestId);
    expect(record.response_body).toBe(sent.text);
  });

  test('a request refused before anything was reserved leaves no record and no body', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const sent = await send(chatBody('who', { model: 'no-such-model' }));
    expect(sent.status).toBe(503);
    await fx.logs();
    expect(await fx.gw.gateway.services.repositories.usageLogBodies.find(sent.requestId)).toBeUndefined();
  });

  test('GET /api/me/logs/{id}: the owner reads their record with its bodies, another user gets 404', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const sent = await send(chatBody('mine'));
    const record = await detail(sent.requestId);
    const alice = await signedInClient(fx.gw, { username: 'alice', password: PASSWORD });
    const own = await alice.call<Detail>('GET', `/me/logs/${record.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual(record);

    await fx.gw.admin('POST', '/users', { username: 'bob', password: PASSWORD, balance: 1 });
    const bob = await signedInClient(fx.gw, { username: 'bob', password: PASSWORD });
    expect((await bob.call('GET', `/me/logs/${record.id}`)).status).toBe(404);
    expect((await fx.gw.admin('GET', '/logs/99999999')).status).toBe(404);
    expect((await fx.gw.admin('GET', '/logs/abc')).status).toBe(404);
  });

  test('log_bodies: admins set it on keys and groups; a key owner sees it but cannot set it', async () => {
    const wrongType = await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: 'yes' });
    expect(wrongType).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', param: 'log_bodies' } },
    });
    const wrongGroup = await fx.gw.admin('PUT', '/groups/default', { log_bodies: null });
    expect(wrongGroup).toMatchObject({ status: 400, body: { error: { param: 'log_bodies' } } });
    const groups = await fx.gw.admin('GET', '/groups');
    expect(groups.body.data.find((group: { name: string }) => group.name === 'default')).toMatchObject({
      log_bodies: false,
    });

    const alice = await signedInClient(fx.gw, { username: 'alice', password: PASSWORD });
    const own = await alice.call<{ data: { id: number; log_bodies: unknown }[] }>('GET', '/me/keys');
    expect(own.body.data.find((key) => key.id === fx.keyId)).toMatchObject({ log_bodies: null });
    const refused = await alice.call('PATCH', `/me/keys/${fx.keyId}`, { body: { log_bodies: true } });
    expect(refused).toMatchObject({ status: 400, body: { error: { param: 'log_bodies' } } });
    const created = await alice.call('POST', '/me/keys', { body: { name: 'x', log_bodies: true } });
    expect(created).toMatchObject({ status: 400, body: { error: { param: 'log_bodies' } } });
  });

  test('body_retention_days deletes old bodies and keeps their records', async () => {
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { log_bodies: true });
    const sent = await send(chatBody('to be forgotten'));
    const record = await detail(sent.requestId);
    expect(record.request_body).not.toBeNull();
    const { services } = fx.gw.gateway;
    // Stored 8 days ago, as the default retention of 7 days sees it.
    await services.store.db
      .updateTable('usage_log_bodies')
      .set({ created_at: Math.floor(Date.now() / 1000) - 8 * 86_400 })
      .where('request_id', '=', sent.requestId)
      .execute();
    await services.retention.run();
    const after = (await fx.gw.admin('GET', `/logs/${record.id}`)).body as Detail;
    expect(after).toMatchObject({ id: record.id, request_body: null, response_body: null });
  });
});
