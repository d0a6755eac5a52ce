import { sql } from 'kysely';
import type { Environment } from '../../src/config/environment.js';
import { startTestGateway, type TestGateway } from './start-test-gateway.js';
import { uniqueSchemaName } from './test-stores.js';

export interface GatewayVariant {
  name: 'sqlite' | 'postgres';
  /** A gateway that trusts loopback as a proxy (so tests choose client addresses), on its own store. */
  start(overrides?: Partial<Environment>): Promise<TestGateway>;
}

const TRUST_LOOPBACK = { trusted_proxies: ['127.0.0.1', '::1'] };

/** SQLite always; PostgreSQL too when `DATABASE_URL` is set, each gateway in a schema of its own. */
export function gatewayVariants(): GatewayVariant[] {
  const variants: GatewayVariant[] = [
    {
      name: 'sqlite',
      start: (overrides = {}) => startTestGateway({ settings: TRUST_LOOPBACK, ...overrides }),
    },
  ];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    variants.push({
      name: 'postgres',
      async start(overrides = {}) {
        const schema = uniqueSchemaName();
        const gw = await startTestGateway({
          settings: TRUST_LOOPBACK,
          databaseUrl,
          databaseSchema: schema,
          ...overrides,
        });
        return {
          ...gw,
          async close(graceMs) {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(gw.gateway.services.store.db);
            await gw.close(graceMs);
          },
        };
      },
    });
  }
  return variants;
}
