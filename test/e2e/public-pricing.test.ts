import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callApi, expectApiError, signedInClient, type ConsoleClient } from '../helpers/console-client.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

/** Admin-api section 15, public pricing: what is listed, to whom, at which ratio, and how fresh. */

const PASSWORD = 'pricing password';
const SLOW = 60_000;

let gw: TestGateway;
let vipClient: ConsoleClient;
let defaultClient: ConsoleClient;
let miniChannelId: number;

const NO_AUDIO = { input_audio: null, output_audio: null, per_minute: null, per_million_characters: null };
const NO_METADATA = { context_window: null, capabilities: null };
const CHAT_TYPES = ['openai', 'openai-response'];

async function admin(method: string, path: string, body?: unknown) {
  const response = await gw.admin(method, path, body);
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

const channel = (fields: Record<string, unknown>) =>
  admin('POST', '/channels', {
    type: 'openai',
    base_url: 'http://127.0.0.1:9',
    keys: ['sk-upstream'],
    ...fields,
  });

const pricing = (headers: Record<string, string> = {}) =>
  callApi<{ data: unknown[] }>(gw, 'GET', '/pricing', { headers });

beforeAll(async () => {
  gw = await startTestGateway({ settings: { trusted_proxies: ['127.0.0.1', '::1'] } });
  await channel({ name: 'chat', models: ['gpt-4o', 'gpt-unpriced'], groups: ['default', 'vip'] });
  miniChannelId = (await channel({ name: 'mini', models: ['gpt-4o-mini'], groups: ['default', 'vip'] })).id;
  await channel({ name: 'embed', models: ['embed-x'], endpoints: ['embeddings'] });
  await channel({ name: 'off', models: ['gpt-disabled'], status: 'disabled' });
  await channel({ name: 'vip', models: ['vip-only'], groups: ['vip'] });
  await admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10, cached_input: 1.25 });
  await admin('PUT', '/prices/gpt-4o-mini', {
    input: 0.15,
    output: 0.6,
    per_request: 0.01,
    input_audio: 1,
    output_audio: 2,
    per_minute: 0.006,
    per_million_characters: 15,
  });
  await admin('PUT', '/prices/embed-x', { input: 0.02, output: 0 });
  await admin('PUT', '/prices/gpt-disabled', { input: 1, output: 1 });
  await admin('PUT', '/prices/vip-only', { input: 3, output: 3 });
  await admin('PUT', '/prices/priced-nowhere', { input: 1, output: 1 });
  await admin('PUT', '/groups/vip', { ratio: 0.5 });
  await admin('PUT', '/models/gpt-4o', { context_window: 128000, capabilities: ['tools', 'vision'] });
  await admin('POST', '/virtual-models', {
    name: 'smart',
    targets: [
      { model: 'gpt-unpriced', priority: 5 },
      { model: 'gpt-4o-mini', priority: 1 },
      { model: 'gpt-4o', priority: 1 },
    ],
  });
  await admin('POST', '/users', { username: 'vip-user', password: PASSWORD, group: 'vip' });
  await admin('POST', '/users', { username: 'plain-user', password: PASSWORD });
  vipClient = await signedInClient(gw, { username: 'vip-user', password: PASSWORD });
  defaultClient = await signedInClient(gw, { username: 'plain-user', password: PASSWORD });
}, SLOW);

afterAll(async () => {
  await gw?.close();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await admin('PATCH', '/settings', { pricing_public: true });
});

const gpt4o = {
  model: 'gpt-4o',
  input: 2.5,
  output: 10,
  cached_input: 1.25,
  cache_write: null,
  per_request: null,
  ...NO_AUDIO,
  endpoint_types: CHAT_TYPES,
  context_window: 128000,
  capabilities: ['tools', 'vision'],
  virtual: false,
};
const mini = {
  model: 'gpt-4o-mini',
  input: 0.15,
  output: 0.6,
  cached_input: null,
  cache_write: null,
  per_request: 0.01,
  input_audio: 1,
  output_audio: 2,
  per_minute: 0.006,
  per_million_characters: 15,
  endpoint_types: CHAT_TYPES,
  ...NO_METADATA,
  virtual: false,
};
const defaultGroupList = [
  {
    model: 'embed-x',
    input: 0.02,
    output: 0,
    cached_input: null,
    cache_write: null,
    per_request: null,
    ...NO_AUDIO,
    endpoint_types: ['embeddings'],
    ...NO_METADATA,
    virtual: false,
  },
  gpt4o,
  mini,
  // A virtual model at the price of the target it tries first (gpt-unpriced has no price).
  { ...mini, model: 'smart', virtual: true },
];

describe('GET /api/pricing', () => {
  it('answers anyone with the default group: priced models an enabled channel serves, and callable virtual models', async () => {
    const response = await pricing();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: defaultGroupList });
    // A plain user's session and the admin token see the same.
    expect((await defaultClient.call('GET', '/pricing')).body).toEqual({ data: defaultGroupList });
    expect((await pricing({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` })).body).toEqual({
      data: defaultGroupList,
    });
    // A credential that is not the admin's is no credential: the public list.
    expect((await pricing({ authorization: 'Bearer sk-not-an-admin' })).body).toEqual({
      data: defaultGroupList,
    });
  });

  it("answers a signed-in user with their group's models at its ratio", async () => {
    const response = await vipClient.call('GET', '/pricing');
    expect(response.status).toBe(200);
    const half = (value: number | null) => (value === null ? null : value / 2);
    expect(response.body).toEqual({
      data: [
        { ...gpt4o, input: 1.25, output: 5, cached_input: 0.625 },
        {
          ...mini,
          input: half(0.15),
          output: 0.3,
          per_request: 0.005,
          input_audio: 0.5,
          output_audio: 1,
          per_minute: 0.003,
          per_million_characters: 7.5,
        },
        {
          ...mini,
          model: 'smart',
          virtual: true,
          input: half(0.15),
          output: 0.3,
          per_request: 0.005,
          input_audio: 0.5,
          output_audio: 1,
          per_minute: 0.003,
          per_million_characters: 7.5,
        },
        {
          model: 'vip-only',
          input: 1.5,
          output: 1.5,
          cached_input: null,
          cache_write: null,
          per_request: null,
          ...NO_AUDIO,
          endpoint_types: CHAT_TYPES,
          ...NO_METADATA,
          virtual: false,
        },
      ],
    });
  });

  it('needs a session or the admin token when pricing_public is false', async () => {
    await admin('PATCH', '/settings', { pricing_public: false });
    expectApiError(await pricing(), 401, 'unauthorized');
    expectApiError(await pricing({ authorization: 'Bearer sk-not-an-admin' }), 401, 'unauthorized');
    expect((await defaultClient.call('GET', '/pricing')).body).toEqual({ data: defaultGroupList });
    expect((await pricing({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` })).status).toBe(200);
  });

  it('reads nothing from the database for an anonymous call', async () => {
    await pricing();
    const db = gw.gateway.services.store.db;
    const reads = [vi.spyOn(db, 'selectFrom'), vi.spyOn(db, 'transaction'), vi.spyOn(db, 'executeQuery')];
    for (let call = 0; call < 5; call += 1) expect((await pricing()).status).toBe(200);
    for (const read of reads) expect(read).not.toHaveBeenCalled();
  });

  it('follows changes of prices, channels, ratios and model metadata without a restart', async () => {
    await admin('PUT', '/prices/gpt-4o', { input: 3, output: 12 });
    await admin('PUT', '/groups/vip', { ratio: 2 });
    await admin('PUT', '/models/gpt-4o-mini', { context_window: 64000 });
    await admin('PATCH', `/channels/${miniChannelId}`, { status: 'disabled' });
    try {
      const anonymous = (await pricing()).body.data as Array<Record<string, unknown>>;
      expect(anonymous.map((entry) => entry.model)).toEqual(['embed-x', 'gpt-4o', 'smart']);
      expect(anonymous[1]).toMatchObject({ model: 'gpt-4o', input: 3, output: 12, cached_input: null });
      // With gpt-4o-mini unreachable, the virtual model's first callable target is gpt-4o.
      expect(anonymous[2]).toMatchObject({ model: 'smart', input: 3, output: 12, context_window: 128000 });
      const vip = (await vipClient.call('GET', '/pricing')).body as { data: Array<Record<string, unknown>> };
      expect(vip.data.find((entry) => entry.model === 'vip-only')).toMatchObject({ input: 6, output: 6 });

      await admin('PATCH', `/channels/${miniChannelId}`, { status: 'enabled' });
      const again = (await pricing()).body.data as Array<Record<string, unknown>>;
      expect(again.find((entry) => entry.model === 'gpt-4o-mini')).toMatchObject({ context_window: 64000 });
    } finally {
      await admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10, cached_input: 1.25 });
      await admin('PUT', '/groups/vip', { ratio: 0.5 });
      await admin('DELETE', '/models/gpt-4o-mini');
      await admin('PATCH', `/channels/${miniChannelId}`, { status: 'enabled' });
    }
  });
});
