import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../src/store/channels-repository.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';

// admin-api section 7: `GET /api/channels/{id}/health`.
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.close();
});

async function createChannel(fields: Record<string, unknown> = {}): Promise<ChannelRecord> {
  const created = await gateway.admin<{ id: number }>('POST', '/channels', {
    name: 'health',
    type: 'openai',
    base_url: 'http://127.0.0.1:9',
    keys: ['sk-health-key-one-0123456789', 'sk-health-key-two-0123456789'],
    models: ['gpt-4o', 'gpt-4o-mini', 'o3'],
    ...fields,
  });
  expect(created.status).toBe(201);
  return (await gateway.gateway.services.repositories.channels.find(created.body.id)) as ChannelRecord;
}

describe('GET /api/channels/{id}/health', () => {
  it('a fresh channel: every model healthy, every key active', async () => {
    const channel = await createChannel();
    const response = await gateway.admin('GET', `/channels/${channel.id}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        { model: 'gpt-4o', state: 'healthy', failures: 0, until: null },
        { model: 'gpt-4o-mini', state: 'healthy', failures: 0, until: null },
        { model: 'o3', state: 'healthy', failures: 0, until: null },
      ],
      keys: [
        { index: 0, state: 'active' },
        { index: 1, state: 'active' },
      ],
    });
  });

  it('shows a model cooling down and a refused key, and nothing of the keys themselves', async () => {
    const channel = await createChannel();
    const { health } = gateway.gateway.services;
    const before = Math.floor(Date.now() / 1000);
    health.route([channel], 'gpt-4o-mini').next()!.failed({ retryAfter: '120' });
    const refusedKey = health.route([channel], 'o3').next()!;
    refusedKey.refused();

    const response = await gateway.admin('GET', `/channels/${channel.id}/health`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      { model: 'gpt-4o', state: 'healthy', failures: 0, until: null },
      { model: 'gpt-4o-mini', state: 'cooling_down', failures: 1, until: expect.any(Number) },
      { model: 'o3', state: 'healthy', failures: 0, until: null },
    ]);
    expect(response.body.data[1].until).toBeGreaterThanOrEqual(before + 120);
    expect(response.body.data[1].until).toBeLessThanOrEqual(before + 122);
    const refusedIndex = channel.keys.indexOf(refusedKey.key);
    expect(response.body.keys).toEqual(
      [0, 1].map((index) => ({ index, state: index === refusedIndex ? 'refused' : 'active' })),
    );
    expect(JSON.stringify(response.body)).not.toContain('sk-health');
    // The channel itself stays enabled: one model and one key do not take it out.
    expect((await gateway.admin('GET', `/channels/${channel.id}`)).body.status).toBe('enabled');
  });

  it('follows the channel models and keys as they are edited', async () => {
    const channel = await createChannel({ models: ['a', 'b'] });
    const patched = await gateway.admin('PATCH', `/channels/${channel.id}`, {
      models: ['b', 'c'],
      keys: ['sk-health-key-three-012345678'],
    });
    expect(patched.status).toBe(200);
    const response = await gateway.admin('GET', `/channels/${channel.id}/health`);
    expect(response.body).toEqual({
      data: [
        { model: 'b', state: 'healthy', failures: 0, until: null },
        { model: 'c', state: 'healthy', failures: 0, until: null },
      ],
      keys: [{ index: 0, state: 'active' }],
    });
  });

  it('404 not_found for an unknown or malformed id', async () => {
    for (const id of ['999999', 'abc']) {
      const response = await gateway.admin('GET', `/channels/${id}/health`);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'not_found', type: 'gateway_api_error' });
    }
  });

  it('401 without admin credentials', async () => {
    const channel = await createChannel();
    const response = await fetch(`${gateway.origin}/api/channels/${channel.id}/health`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });
});

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

it.runIf(databaseUrl && redisUrl)(
  'two instances on one PostgreSQL and Redis: what one learns, the other shows within a second',
  async () => {
    const schema = uniqueSchemaName();
    const shared = { databaseUrl, databaseSchema: schema, redisUrl };
    let first: TestGateway | undefined;
    let second: TestGateway | undefined;
    try {
      first = await startTestGateway(shared);
      second = await startTestGateway(shared);
      const created = await first.admin<{ id: number }>('POST', '/channels', {
        name: 'shared',
        type: 'openai',
        base_url: 'http://127.0.0.1:9',
        keys: ['sk-shared-key-one-0123456789', 'sk-shared-key-two-0123456789'],
        models: ['gpt-4o', 'o3'],
      });
      const channel = (await first.gateway.services.repositories.channels.find(created.body.id))!;
      const { health } = first.gateway.services;
      health.route([channel], 'o3').next()!.failed({ retryAfter: '30' });
      health.route([channel], 'gpt-4o').next()!.refused();

      const seen = async () => (await second!.admin('GET', `/channels/${channel.id}/health`)).body;
      let body = await seen();
      for (let waited = 0; waited < 1000 && body.data[1].state !== 'cooling_down'; waited += 25) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        body = await seen();
      }
      expect(body.data).toEqual([
        { model: 'gpt-4o', state: 'healthy', failures: 0, until: null },
        { model: 'o3', state: 'cooling_down', failures: 1, until: expect.any(Number) },
      ]);
      expect(body.keys.map((key: { state: string }) => key.state).sort()).toEqual(['active', 'refused']);
    } finally {
      await second?.close();
      if (first) {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(first.gateway.services.store.db);
        await first.close();
      }
    }
  },
);
