import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';

/**
 * Guardrails (admin-api section 12) through the official SDKs: regular expressions and webhooks
 * that read the request's text before anything is charged; a block is 400 `guardrail_blocked`,
 * not charged, with a usage record; a webhook that fails, hangs or talks nonsense is judged by
 * its `fail`, within its `timeout_ms`.
 */
type Answer = (body: any) => { status: number; text: string } | 'hang';

interface GuardrailHook {
  url: string;
  received: any[];
  answer: Answer;
  close(): Promise<void>;
}

async function startGuardrailHook(): Promise<GuardrailHook> {
  const hanging = new Set<ServerResponse>();
  const hook: GuardrailHook = {
    url: '',
    received: [],
    answer: () => ({ status: 200, text: '{"allow": true}' }),
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(text);
      hook.received.push(body);
      const answer = hook.answer(body);
      if (answer === 'hang') return void hanging.add(response);
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hook.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check`;
  hook.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return hook;
}

describe('guardrails', () => {
  let fx: RelayFixture;
  let hook: GuardrailHook;
  const admin = (method: string, route: string, body?: unknown) => fx.gw.admin(method, route, body);
  const ask = (content: string, client: OpenAI = fx.openai) =>
    client.chat.completions.create({
      model: 'gpt-4o',
      max_tokens: 8,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content },
      ],
    });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
    );
  let created: number[] = [];
  const guardrail = async (body: Record<string, unknown>) => {
    const answer = await admin('POST', '/guardrails', body);
    expect(answer.status).toBe(201);
    created.push(answer.body.id);
    return answer.body;
  };

  beforeAll(async () => {
    fx = await startRelayFixture({ balance: 100 });
    hook = await startGuardrailHook();
  });
  afterAll(async () => {
    await fx?.close();
    await hook?.close();
  });
  beforeEach(async () => {
    for (const id of created) await admin('DELETE', `/guardrails/${id}`);
    created = [];
    fx.upstream.clear();
    hook.received.length = 0;
    hook.answer = () => ({ status: 200, text: '{"allow": true}' });
  });

  describe('the management API', () => {
    test('creates with the documented defaults, reads, lists, changes and deletes', async () => {
      const made = await guardrail({ name: 'no-cards', kind: 'regex', pattern: '\\b4\\d{15}\\b' });
      expect(made).toMatchObject({
        name: 'no-cards',
        kind: 'regex',
        pattern: '\\b4\\d{15}\\b',
        url: null,
        action: 'block',
        fail: 'closed',
        timeout_ms: 1000,
        groups: null,
      });
      expect((await admin('GET', `/guardrails/${made.id}`)).body).toEqual(made);
      expect((await admin('GET', '/guardrails')).body.data).toEqual([made]);
      const changed = await admin('PATCH', `/guardrails/${made.id}`, { action: 'log', groups: ['vip'] });
      expect(changed.body).toMatchObject({ action: 'log', groups: ['vip'], pattern: made.pattern });
      expect((await admin('DELETE', `/guardrails/${made.id}`)).status).toBe(204);
      expect((await admin('GET', `/guardrails/${made.id}`)).status).toBe(404);
      created = [];
    });

    test.each([
      ['a regex without its pattern', { name: 'x', kind: 'regex' }, 'pattern'],
      ['a webhook without its URL', { name: 'x', kind: 'webhook' }, 'url'],
      ['a pattern that does not compile', { name: 'x', kind: 'regex', pattern: '(' }, 'pattern'],
      [
        'a pattern that backtracks catastrophically',
        { name: 'x', kind: 'regex', pattern: '(a+)+$' },
        'pattern',
      ],
      ['a URL of another scheme', { name: 'x', kind: 'webhook', url: 'ftp://127.0.0.1/check' }, 'url'],
      [
        'a timeout of zero',
        { name: 'x', kind: 'webhook', url: 'http://127.0.0.1/', timeout_ms: 0 },
        'timeout_ms',
      ],
      ['an unknown kind', { name: 'x', kind: 'llm' }, 'kind'],
    ])('refuses %s with 400 naming the member', async (_what, body, member) => {
      const answer = await admin('POST', '/guardrails', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe(member);
    });

    test('refuses a name already taken', async () => {
      await guardrail({ name: 'taken', kind: 'regex', pattern: 'x' });
      const answer = await admin('POST', '/guardrails', { name: 'taken', kind: 'regex', pattern: 'y' });
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe('name');
    });
  });

  test('a matching regex blocks the request before it is charged, and leaves a usage record', async () => {
    await guardrail({ name: 'no-secrets', kind: 'regex', pattern: 'password\\s*[:=]' });
    const before = (await fx.user()).balance;
    const error = await refusal(ask('my password: hunter2'));
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('guardrail_blocked');
    expect(error?.message).toContain('request blocked by guardrail no-secrets');
    expect(fx.upstream.requests).toHaveLength(0);
    expect((await fx.user()).balance).toBe(before);
    const [record] = await fx.logs();
    expect(record).toMatchObject({
      status_code: 400,
      cost: 0,
      error: 'request blocked by guardrail no-secrets',
      model: 'gpt-4o',
    });
    // Text that does not match goes through.
    await ask('what is a strong password policy?');
    expect(fx.upstream.requests).toHaveLength(1);

    const scraped = await fetch(`${fx.gw.origin}/metrics`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const metrics = parsePrometheusText(await scraped.text());
    expect(
      valueOf(metrics, 'gateway_guardrail_verdicts_total', { guardrail: 'no-secrets', verdict: 'match' }),
    ).toBe(1);
    expect(
      valueOf(metrics, 'gateway_guardrail_verdicts_total', { guardrail: 'no-secrets', verdict: 'pass' }),
    ).toBe(1);
  });

  test('a messages client is answered in its own error shape; the system prompt is read too', async () => {
    await guardrail({ name: 'no-pirates', kind: 'regex', pattern: 'pirate' });
    const anthropic = new Anthropic({ apiKey: fx.key, baseURL: fx.gw.origin, maxRetries: 0 });
    const error = (await anthropic.messages
      .create({
        model: 'gpt-4o',
        max_tokens: 8,
        system: 'Talk like a pirate.',
        messages: [{ role: 'user', content: 'hello' }],
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error.error as any).error.message).toContain('request blocked by guardrail no-pirates');
  });

  test('action log lets the request through; a guardrail of another group does not apply', async () => {
    await guardrail({ name: 'watch', kind: 'regex', pattern: 'hunter2', action: 'log' });
    await guardrail({ name: 'vip-only', kind: 'regex', pattern: 'hunter2', groups: ['vip'] });
    await ask('hunter2');
    expect(fx.upstream.requests).toHaveLength(1);
  });

  describe('webhooks', () => {
    test('get the model, endpoint, user, key and texts, and their allow decides', async () => {
      await guardrail({ name: 'moderator', kind: 'webhook', url: hook.url });
      hook.answer = (body) =>
        body.texts.some((text: string) => text.includes('forbidden'))
          ? { status: 200, text: '{"allow": false, "reason": "off topic"}' }
          : { status: 200, text: '{"allow": true}' };
      await ask('fine words');
      expect(hook.received[0]).toEqual({
        model: 'gpt-4o',
        endpoint: 'chat-completions',
        user_id: fx.userId,
        key_id: fx.keyId,
        texts: ['You are terse.', 'fine words'],
      });
      const error = await refusal(ask('forbidden words'));
      expect(error?.code).toBe('guardrail_blocked');
      expect(fx.upstream.requests).toHaveLength(1);
    });

    test.each([
      ['never answers', (): ReturnType<Answer> => 'hang'],
      ['answers 500', (): ReturnType<Answer> => ({ status: 500, text: '{"allow": true}' })],
      ['answers garbage', (): ReturnType<Answer> => ({ status: 200, text: 'allow: yes' })],
      ['answers allow as text', (): ReturnType<Answer> => ({ status: 200, text: '{"allow": "true"}' })],
    ])('one that %s blocks when failing closed and lets through when failing open', async (_what, answer) => {
      hook.answer = answer;
      const closed = await guardrail({ name: 'closed', kind: 'webhook', url: hook.url, timeout_ms: 300 });
      const started = performance.now();
      const error = await refusal(ask('hello'));
      expect(error?.code).toBe('guardrail_blocked');
      expect(performance.now() - started).toBeLessThan(3_000);
      await admin('PATCH', `/guardrails/${closed.id}`, { fail: 'open' });
      await ask('hello');
      expect(fx.upstream.requests).toHaveLength(1);
    });
  });
});
