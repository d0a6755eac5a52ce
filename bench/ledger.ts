/**
 * `npm run bench:ledger`: the CPU time of a request's money moves on SQLite alone, in a loop, on the
 * gateway's own schema and statements: a reservation, a settlement with its usage record, and the
 * record's later move to `usage_logs`, as the gateway makes them. The reservations of a group of
 * requests share one group commit and their settlements the next, as concurrent requests do (at
 * saturation the bench's 64 connections put about 20 requests in a group); one move to
 * `usage_logs` follows every 2,800 settlements (about what 200 ms at saturation settles). Prints
 * the CPU time per request (user and system) for each group size in `BENCH_LEDGER_GROUPS`, after
 * `BENCH_LEDGER_WARM_UP` requests, over `BENCH_LEDGER_REQUESTS`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLedgerAccount } from './ledger-account.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const groups = (process.env.BENCH_LEDGER_GROUPS ?? '1,5,20,60').split(',').map(Number);
const warmUp = Number(process.env.BENCH_LEDGER_WARM_UP ?? 20_000);
const requests = Number(process.env.BENCH_LEDGER_REQUESTS ?? 60_000);
const SETTLEMENTS_PER_MOVE = 2_800;
const OWNER = 'bench-ledger';
const CREATED_AT = 1_700_000_000;

/** The parts of the built gateway used here (imported from `dist/`, outside this project's root). */
interface Ledger {
  reserve(hold: Record<string, unknown>): Promise<string>;
  settle(hold: Record<string, unknown>, cost: number, record: Record<string, unknown>): Promise<boolean>;
  storeRecords(owner: string): Promise<number>;
}
const { openMoneyLedger } = await import(path.join(root, 'dist/store/open-money-ledger.js'));

async function measure(groupSize: number): Promise<{ user: number; system: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-bench-ledger-'));
  const { store } = await openLedgerAccount(root, dataDir);
  try {
    const ledger: Ledger = openMoneyLedger(store);
    let sequence = 0;
    let settledSinceMove = 0;
    const group = async () => {
      const ids = Array.from(
        { length: groupSize },
        () => `bench${(++sequence).toString(16).padStart(16, '0')}`,
      );
      await Promise.all(ids.map((id) => ledger.reserve(hold(id))));
      await Promise.all(ids.map((id) => ledger.settle(heldMoney(id), 80, usageRecord(id))));
      settledSinceMove += groupSize;
      if (settledSinceMove >= SETTLEMENTS_PER_MOVE) {
        settledSinceMove = 0;
        await ledger.storeRecords(OWNER);
      }
    };
    const run = async (count: number) => {
      for (let done = 0; done < count; done += groupSize) await group();
    };
    await run(warmUp);
    const before = process.cpuUsage();
    await run(requests);
    const used = process.cpuUsage(before);
    return { user: used.user / requests, system: used.system / requests };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function hold(id: string): Record<string, unknown> {
  return {
    id,
    owner: OWNER,
    userId: 1,
    keyId: 1,
    keyCapped: false,
    amount: 1_000,
    model: 'bench-model',
    endpoint: 'chat',
    stream: false,
    createdAt: CREATED_AT,
  };
}

function heldMoney(id: string): Record<string, unknown> {
  return { id, userId: 1, keyId: 1, keyCapped: false, amount: 1_000 };
}

function usageRecord(requestId: string): Record<string, unknown> {
  return {
    requestId,
    userId: 1,
    keyId: 1,
    channelId: 1,
    model: 'bench-model',
    endpoint: 'chat',
    stream: false,
    statusCode: 200,
    promptTokens: 20,
    completionTokens: 30,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 80,
    latencyMs: 1,
    firstByteMs: null,
    error: null,
    createdAt: CREATED_AT,
  };
}

console.log('requests per group  CPU per request (µs)  user  system');
for (const groupSize of groups) {
  const { user, system } = await measure(groupSize);
  const cells = [
    String(groupSize).padEnd(19),
    (user + system).toFixed(2).padEnd(21),
    user.toFixed(2).padEnd(5),
    system.toFixed(2),
  ];
  console.log(cells.join(' '));
}
