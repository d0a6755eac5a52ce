import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ensureGatewayBuilt,
  startBuiltGateway as startBuilt,
  stopBuiltGateway as stop,
} from '../helpers/built-gateway.js';

let dataDir: string;

const startBuiltGateway = (env: Record<string, string>) => startBuilt({ GATEWAY_DATA_DIR: dataDir, ...env });

beforeAll(async () => {
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-start-'));
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('first start prints a generated admin token once, serves, and stops cleanly on SIGTERM', async () => {
  const first = await startBuiltGateway({});
  const tokenLines = first.lines.filter((line) => line.includes('admin token'));
  expect(tokenLines).toHaveLength(1);
  const token = /: (gw-admin-\S+)$/.exec(tokenLines[0] ?? '')?.[1];
  expect(token).toBeDefined();
  expect(first.lines.filter((line) => line.includes('gateway ready on'))).toHaveLength(1);

  const page = await fetch(`${first.origin}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('x-gateway-request-id')).toMatch(/^[0-9a-f]{32}$/);
  const settings = await fetch(`${first.origin}/api/settings`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(settings.status).toBe(200);
  expect(await stop(first)).toBe(0);

  const second = await startBuiltGateway({});
  expect(second.lines.some((line) => line.includes('admin token'))).toBe(false);
  const again = await fetch(`${second.origin}/api/settings`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(again.status).toBe(200);
  const wrong = await fetch(`${second.origin}/api/settings`, { headers: { authorization: 'Bearer nope' } });
  expect(wrong.status).toBe(401);
  expect(await stop(second)).toBe(0);
}, 60_000);

test('GATEWAY_ADMIN_TOKEN replaces the stored token and is never printed', async () => {
  const started = await startBuiltGateway({ GATEWAY_ADMIN_TOKEN: 'env-token-123' });
  expect(started.lines.join('\n')).not.toContain('env-token-123');
  const response = await fetch(`${started.origin}/api/settings`, {
    headers: { authorization: 'Bearer env-token-123' },
  });
  expect(response.status).toBe(200);
  expect(await stop(started)).toBe(0);
}, 60_000);

test('a start that cannot reach its database says why and exits with 1', async () => {
  // Port 1 on loopback: nothing listens there, and, privileged, no test server can take it. A port
  // freed by the test itself could be taken by another test's server before the gateway connects.
  const failed = startBuiltGateway({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
  const error = await failed.then(
    () => undefined,
    (reason: Error) => reason,
  );
  expect(error?.message).toMatch(/^gateway exited with 1: /);
  const printed = error!.message.replace(/^gateway exited with 1: /, '').split('\n');
  const line = JSON.parse(printed.find((text) => text.includes('failed to start'))!);
  expect(line.level).toBe(60);
  expect(line.msg).toBe('gateway failed to start');
  expect(line.err.message).toMatch(/ECONNREFUSED/);
}, 60_000);
