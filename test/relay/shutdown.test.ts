import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openStore } from '../../src/store/database.js';
import { UsageLogsRepository } from '../../src/store/usage-logs-repository.js';
import { startRelayFixture } from '../helpers/relay-fixture.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-shutdown-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

async function storedLogs() {
  const store = openStore({ dataDir });
  try {
    return await new UsageLogsRepository(store.db).list({ limit: 10, offset: 0 });
  } finally {
    await store.close();
  }
}

function openStream(origin: string, key: string) {
  return fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }),
  });
}

test('on shutdown an open stream finishes within the grace period, then its usage record is stored', async () => {
  const fx = await startRelayFixture({ gateway: { dataDir } });
  fx.upstream.script({ type: 'reply', chunkDelayMs: 60 });
  const response = await openStream(fx.gw.origin, fx.key);
  const reading = response.text();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await fx.gw.close(5_000);
  await fx.upstream.close();
  const text = await reading;
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  const logs = await storedLogs();
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({ statusCode: 200, promptTokens: 20, completionTokens: 12, error: null });
});

test('a stream still open when the grace period ends is cut, charged for what it produced, and recorded', async () => {
  const fx = await startRelayFixture({ gateway: { dataDir } });
  fx.upstream.script({ type: 'stall', afterChunks: 2 });
  const response = await openStream(fx.gw.origin, fx.key);
  const reading = response.text().catch(() => '');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  await fx.gw.close(300);
  expect(Date.now() - started).toBeLessThan(3_000);
  await fx.upstream.close();
  await reading;
  const logs = await storedLogs();
  expect(logs).toHaveLength(1);
  expect(logs[0]!.cost).toBeGreaterThan(0);
  expect(logs[0]!.error).not.toBeNull();
});
