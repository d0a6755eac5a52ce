import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * Virtual models through the official SDK (admin-api section 11.2): a request for the virtual name
 * is served by its first target, in the strategy's order, that is priced and has a channel of the
 * key's group; Model Limits are checked on the name sent; billing uses the served target's price;
 * and every relayed response names the model that served it in `X-Gateway-Model`.
 */
const ANTHROPIC_KEY = 'anthropic-upstream-key';

describe('virtual models', () => {
  let fx: RelayFixture;
  let anthropic: FakeUpstream;
  let claudeChannel: number;

  beforeAll(async () => {
    fx = await startRelayFixture({ balance: 100 });
    anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
    const channel = await fx.gw.admin('POST', '/channels', {
      name: 'claude',
      type: 'anthropic',
      base_url: anthropic.origin,
      keys: [ANTHROPIC_KEY],
      models: ['claude-sonnet-4-5', 'claude-unpriced'],
    });
    claudeChannel = channel.body.id;
    await fx.gw.admin('PUT', '/prices/claude-sonnet-4-5', { input: 3, output: 15 });
    const created = await fx.gw.admin('POST', '/virtual-models', {
      name: 'smart',
      targets: [
        { model: 'claude-unpriced', priority: 9 },
        { model: 'claude-sonnet-4-5', priority: 5 },
        { model: 'gpt-4o', priority: 1 },
      ],
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await fx?.close();
    await anthropic?.close();
  });

  const ask = (client: OpenAI, model: string) =>
    client.chat.completions
      .create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();

  /** The newest usage record, as `GET /api/logs` shows it (cost in USD). */
  async function lastRecord(): Promise<{ model: string; requested_model: string; cost: number }> {
    const [record] = await fx.logs();
    return record;
  }

  test("is served by its first priced target with a channel, converted, billed at that target's price", async () => {
    const { data, response } = await ask(fx.openai, 'smart');
    expect(response.headers.get('x-gateway-model')).toBe('claude-sonnet-4-5');
    expect(data.choices[0]?.message.content).toEqual(expect.any(String));
    expect(anthropic.requests).toHaveLength(1);
    expect((anthropic.requests[0]!.body as { model: string }).model).toBe('claude-sonnet-4-5');
    const record = await lastRecord();
    expect(record.model).toBe('claude-sonnet-4-5');
    expect(record.requested_model).toBe('smart');
    const { prompt_tokens: input, completion_tokens: output } = data.usage!;
    expect(record.cost).toBeCloseTo((input * 3 + output * 15) / 1e6, 12);
  });

  test('moves to the next target when the first has no channel left', async () => {
    await fx.gw.admin('PATCH', `/channels/${claudeChannel}`, { status: 'disabled' });
    try {
      const { response } = await ask(fx.openai, 'smart');
      expect(response.headers.get('x-gateway-model')).toBe('gpt-4o');
      expect(fx.upstream.requests).toHaveLength(1);
      expect((await lastRecord()).model).toBe('gpt-4o');
    } finally {
      await fx.gw.admin('PATCH', `/channels/${claudeChannel}`, { status: 'enabled' });
    }
  });

  test('a channel added later that serves the virtual name itself takes it over', async () => {
    await fx.gw.admin('POST', '/virtual-models', { name: 'shadowed', targets: [{ model: 'gpt-4o' }] });
    expect((await ask(fx.openai, 'shadowed')).response.headers.get('x-gateway-model')).toBe('gpt-4o');
    await fx.gw.admin('POST', '/channels', {
      name: 'shadowing',
      type: 'anthropic',
      base_url: anthropic.origin,
      keys: [ANTHROPIC_KEY],
      models: ['shadowed'],
    });
    await fx.gw.admin('PUT', '/prices/shadowed', { input: 1, output: 1 });
    expect((await ask(fx.openai, 'shadowed')).response.headers.get('x-gateway-model')).toBe('shadowed');
  });

  test('Model Limits are checked on the name sent, not on the targets', async () => {
    const user = await fx.gw.admin('POST', '/users', { username: 'limited', balance: 10 });
    const client = async (modelLimits: string[]) => {
      const key = await fx.gw.admin('POST', '/keys', { user_id: user.body.id, model_limits: modelLimits });
      return new OpenAI({ apiKey: key.body.key, baseURL: `${fx.gw.origin}/v1`, maxRetries: 0 });
    };
    const onlySmart = await client(['smart']);
    expect((await ask(onlySmart, 'smart')).response.status).toBe(200);
    const onlyTargets = await client(['claude-sonnet-4-5', 'gpt-4o']);
    await expect(ask(onlyTargets, 'smart')).rejects.toMatchObject({ status: 403 });
  });

  test('a plain model names itself in the header, in a reply, a stream and a passed-through error', async () => {
    expect((await ask(fx.openai, 'gpt-4o-mini')).response.headers.get('x-gateway-model')).toBe('gpt-4o-mini');
    expect(await lastRecord()).toMatchObject({ model: 'gpt-4o-mini', requested_model: 'gpt-4o-mini' });
    const stream = await fx.openai.chat.completions
      .create({ model: 'gpt-4o', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(stream.response.headers.get('x-gateway-model')).toBe('gpt-4o');
    for await (const _chunk of stream.data) void _chunk;
    fx.upstream.script({ type: 'error', status: 400, message: 'bad things' });
    const failed = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(failed.status).toBe(400);
    expect(failed.headers.get('x-gateway-model')).toBe('gpt-4o');
  });
});
