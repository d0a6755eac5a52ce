import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedUserWithKey } from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

/** Two instances sharing PostgreSQL and Redis: a change made through one is seen by the other. */
test.runIf(databaseUrl && redisUrl)(
  'a key disabled through one instance is refused by the other',
  async () => {
    const schema = uniqueSchemaName();
    const shared = { databaseUrl, databaseSchema: schema, redisUrl };
    let first: TestGateway | undefined;
    let second: TestGateway | undefined;
    try {
      first = await startTestGateway(shared);
      second = await startTestGateway(shared);
      const { key, record } = await seedUserWithKey(first);
      const { repositories, changes } = first.gateway.services;

      const listThrough = (gateway: TestGateway) =>
        fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } }).then(
          (r) => r.status,
        );
      expect(await listThrough(second)).toBe(200);

      await repositories.keys.update(record.id, { status: 'disabled' });
      await changes.publish('keys');
      expect(await listThrough(first)).toBe(401);
      let status = 200;
      for (let waited = 0; waited < 3000 && status !== 401; waited += 25) {
        status = await listThrough(second);
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(status).toBe(401);
    } finally {
      await second?.close();
      if (first) {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(first.gateway.services.store.db);
        await first.close();
      }
    }
  },
);
