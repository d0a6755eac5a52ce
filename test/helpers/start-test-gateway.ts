import { readEnvironment, type Environment } from '../../src/config/environment.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token';

export interface TestGateway {
  gateway: Gateway;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Calls the management API as the root admin and returns status and parsed body. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(graceMs?: number): Promise<void>;
}

/**
 * A real gateway on a random loopback port with an in-memory SQLite database, or PostgreSQL
 * when `databaseUrl` is given.
 */
export async function startTestGateway(overrides: Partial<Environment> = {}): Promise<TestGateway> {
  const environment: Environment = {
    ...readEnvironment({}),
    dataDir: ':memory:',
    adminToken: TEST_ADMIN_TOKEN,
    logLevel: 'silent',
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  };
  const gateway = await createGateway(environment, createLogger('silent'));
  const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    gateway,
    origin: address,
    async admin(method, path, body) {
      const response = await fetch(`${address}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: (graceMs) => gateway.close(graceMs),
  };
}
