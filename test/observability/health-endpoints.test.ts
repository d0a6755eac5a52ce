import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { Readiness } from '../../src/observability/readiness.js';
import { openStore } from '../../src/store/database.js';
import { startRelayFixture } from '../helpers/relay-fixture.js';
import { freePort, redisServerAvailable, startOwnRedis } from '../helpers/redis-server.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';

const databaseUrl = process.env.DATABASE_URL;

async function probe(gw: TestGateway, path: '/healthz' | '/readyz') {
  const response = await fetch(`${gw.origin}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Polls `/readyz` until it answers `status` (a load balancer's view), or gives up after a while. */
async function readyzUntil(gw: TestGateway, status: number) {
  let answer = await probe(gw, '/readyz');
  for (let waited = 0; answer.status !== status && waited < 8_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await probe(gw, '/readyz');
  }
  return answer;
}

test('/healthz: 200 {"status":"ok"}, no credentials needed', async () => {
  const gw = await startTestGateway();
  try {
    expect(await probe(gw, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  } finally {
    await gw.close();
  }
});

test('/readyz with SQLite: 200 while the database answers, 503 naming it once it does not', async () => {
  const gw = await startTestGateway();
  try {
    expect(await probe(gw, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok' } },
    });
    await gw.gateway.services.store.close();
    expect(await probe(gw, '/readyz')).toEqual({
      status: 503,
      body: { status: 'not_ready', failing: ['database'], checks: { database: 'failing' } },
    });
    // The process still serves: liveness stays up.
    expect((await probe(gw, '/healthz')).status).toBe(200);
  } finally {
    await gw.close();
  }
});

test.runIf(databaseUrl)(
  '/readyz with PostgreSQL: 503 naming the database while it is unreachable, 200 once it is back',
  async () => {
    const target = new URL(databaseUrl ?? '');
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(target);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const schema = uniqueSchemaName();
    const gw = await startTestGateway({ databaseUrl: proxied.toString(), databaseSchema: schema });
    try {
      expect((await probe(gw, '/readyz')).status).toBe(200);
      proxy.cut();
      expect(await readyzUntil(gw, 503)).toEqual({
        status: 503,
        body: { status: 'not_ready', failing: ['database'], checks: { database: 'failing' } },
      });
      proxy.restore();
      expect((await readyzUntil(gw, 200)).body).toEqual({ status: 'ready', checks: { database: 'ok' } });
    } finally {
      proxy.restore();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(gw.gateway.services.store.db);
      await gw.close();
      await proxy.close();
    }
  },
);

test.runIf(redisServerAvailable)(
  '/readyz with Redis: 503 naming redis while it is down, 200 once it is back',
  async () => {
    const redis = await startOwnRedis();
    const gw = await startTestGateway({ redisUrl: redis.url });
    try {
      expect(await readyzUntil(gw, 200)).toEqual({
        status: 200,
        body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } },
      });
      await redis.stop();
      expect(await readyzUntil(gw, 503)).toEqual({
        status: 503,
        body: { status: 'not_ready', failing: ['redis'], checks: { database: 'ok', redis: 'failing' } },
      });
      await redis.start();
      expect((await readyzUntil(gw, 200)).status).toBe(200);
    } finally {
      await redis.start().catch(() => undefined);
      await gw.close();
      await redis.stop();
    }
  },
);

test('readiness with REDIS_URL on a loopback port where nothing listens: redis failing, at once', async () => {
  const store = openStore({ dataDir: ':memory:' });
  const readiness = new Readiness({ store, redisUrl: `redis://127.0.0.1:${await freePort()}` });
  try {
    const started = performance.now();
    expect(await readiness.check()).toEqual({
      ready: false,
      shuttingDown: false,
      failing: ['redis'],
      checks: { database: 'ok', redis: 'failing' },
    });
    expect(performance.now() - started).toBeLessThan(2_500);
  } finally {
    await readiness.close();
    await store.close();
  }
});

test('shutdown: /readyz turns 503 at once while requests are still served through the drain period', async () => {
  const observability = {
    ...readEnvironment({}).observability,
    shutdownDrainMs: 1_500,
  };
  const fx = await startRelayFixture({ gateway: { observability } });
  const closed = fx.gw.close();
  try {
    expect(await probe(fx.gw, '/readyz')).toEqual({
      status: 503,
      body: { status: 'shutting_down', failing: ['shutdown'], checks: { database: 'ok' } },
    });
    expect(await probe(fx.gw, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    const completion = await fx.openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'still there?' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
  } finally {
    await closed;
    await fx.upstream.close();
  }
  // Past the drain the gateway stops accepting.
  await expect(fetch(`${fx.gw.origin}/healthz`)).rejects.toThrow();
});
