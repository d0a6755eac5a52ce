import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createRepositories } from '../../src/store/repositories.js';

test('the write-ahead log is copied into the database file by the background checkpointer', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-wal-'));
  const file = path.join(dataDir, 'gateway.sqlite');
  const store = openStore({ dataDir });
  try {
    await migrateToLatest(store);
    const sizeBefore = statSync(file).size;
    const logs = Array.from({ length: 3000 }, (_, index) => ({
      requestId: `r${index}`.padEnd(40, 'x'),
      createdAt: 1,
      userId: 1,
      keyId: 1,
      channelId: 1,
      model: 'model',
      endpoint: 'chat-completions',
      stream: false,
      statusCode: 200,
      promptTokens: 1,
      completionTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      cost: 1,
      latencyMs: 1,
      firstByteMs: null,
      error: null,
    }));
    await createRepositories(store).usageLogs.insertMany(logs);
    // The commit itself never checkpoints: the rows sit in the log until the worker copies them.
    expect(statSync(file).size).toBe(sizeBefore);
    for (let waited = 0; waited < 3000 && statSync(file).size === sizeBefore; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statSync(file).size).toBeGreaterThan(sizeBefore);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
