import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { expect, test } from 'vitest';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createRepositories } from '../../src/store/repositories.js';
import { BUSY_TIMEOUT_MS, isBusyError } from '../../src/store/sqlite-busy-retry.js';
import { startWalCheckpointer } from '../../src/store/wal-checkpointer.js';
import { ensureGatewayBuilt, repositoryRoot } from '../helpers/built-gateway.js';

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

test('closing the store waits for the checkpointer to stop, even with nothing else keeping the process alive', async () => {
  await ensureGatewayBuilt();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-wal-'));
  try {
    // The worker is unreferenced while it runs; were it still so, the process would end (code 13,
    // a top-level await left waiting) before the close resolved and the last line was printed.
    const script = path.join(dataDir, 'close-store.mjs');
    writeFileSync(
      script,
      `import { openStore } from ${JSON.stringify(path.join(repositoryRoot, 'dist/store/database.js'))};
      const store = openStore({ dataDir: ${JSON.stringify(dataDir)} });
      await store.close();
      console.log('closed');`,
    );
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, [script], { timeout: 10_000 }, (error, stdout) =>
        resolve({ code: error ? (error.code as number | null) : 0, stdout }),
      );
    });
    expect(result).toEqual({ code: 0, stdout: 'closed\n' });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);

/**
 * A database file in WAL mode, set up as the gateway's (commits never checkpoint, a short busy
 * wait), with one counter row and the statement that adds one to it: one frame per commit.
 */
function openCounter() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-wal-'));
  const file = path.join(dataDir, 'gateway.sqlite');
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('wal_autocheckpoint = 0');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  database.exec('create table counters (id integer primary key, value integer not null)');
  database.prepare('insert into counters (id, value) values (1, 0)').run();
  const increment = database.prepare('update counters set value = value + 1 where id = 1');
  return { dataDir, file, database, increment };
}

test('under writes that never pause, the write-ahead log still starts over and stays bounded', async () => {
  const { dataDir, file, database, increment } = openCounter();
  const restartFrames = 200;
  const pageSize = Number(database.pragma('page_size', { simple: true }));
  database.pragma(`journal_size_limit = ${restartFrames * pageSize}`);
  const checkpointer = startWalCheckpointer(file, { intervalMs: 20, restartFrames });
  let largest = 0;
  let commits = 0;
  try {
    // One commit per turn of the event loop, for two seconds: the worker's passive checkpoints
    // never find the log idle. A commit refused while the restart holds the lock tries again.
    const until = performance.now() + 2000;
    while (performance.now() < until) {
      try {
        increment.run();
        commits += 1;
      } catch (error) {
        if (!isBusyError(error)) throw error;
      }
      largest = Math.max(largest, statSync(`${file}-wal`).size);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await checkpointer.close();
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // Each commit appends a frame: a log that never started over would hold one per commit. Between
  // two restarts it grows by what the writes add in one interval, on top of `restartFrames`.
  expect(commits).toBeGreaterThan(restartFrames * 20);
  expect(largest / pageSize).toBeLessThan(commits / 4);
});

test('a reader that keeps an old snapshot does not hold the writer up while the log waits to start over', async () => {
  const { dataDir, file, database, increment } = openCounter();
  for (let index = 0; index < 300; index++) increment.run();
  // Another connection (another process, in a cluster) in the middle of a long read.
  const reader = new SqliteDatabase(file);
  reader.exec('begin');
  reader.prepare('select value from counters').get();
  const checkpointer = startWalCheckpointer(file, { intervalMs: 20, restartFrames: 100 });
  let longestStall = 0;
  try {
    let lastCommit = performance.now();
    const until = lastCommit + 1500;
    while (performance.now() < until) {
      try {
        increment.run();
        lastCommit = performance.now();
      } catch (error) {
        if (!isBusyError(error)) throw error;
        longestStall = Math.max(longestStall, performance.now() - lastCommit);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    reader.exec('rollback');
    reader.close();
    await checkpointer.close();
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // Each restart attempt keeps the write lock for at most its own 10 ms wait for the reader.
  expect(longestStall).toBeLessThan(200);
});
