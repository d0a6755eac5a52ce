import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { openStore } from '../../src/store/database.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const databaseUrl = process.env.DATABASE_URL;

/**
 * A connection lost while a query runs fails that query and nothing else: pg also reports the loss
 * as an `error` event of the client, which would reach the process as an uncaught exception if the
 * store did not hear it (vitest fails the run on one).
 */
test.runIf(databaseUrl)(
  'a PostgreSQL connection cut during a query fails the query, not the process',
  async () => {
    const target = new URL(databaseUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(target);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const store = openStore({ dataDir: ':memory:', databaseUrl: proxied.toString() });
    const uncaught: unknown[] = [];
    const hear = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', hear);
    try {
      await sql`select 1`.execute(store.db);
      const running = sql`select pg_sleep(5)`.execute(store.db);
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.cut();
      await expect(running).rejects.toThrow(/Connection terminated/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', hear);
      proxy.restore();
      await store.close();
      await proxy.close();
    }
  },
);
