import { expect, test } from 'vitest';
import { hashKey } from '../../src/auth/hash-key.js';
import { PrincipalCache } from '../../src/auth/principal-cache.js';
import { LocalChangeFeed } from '../../src/events/change-feed.js';
import type { KeyRecord, KeysRepository } from '../../src/store/keys-repository.js';
import type { UserRecord, UsersRepository } from '../../src/store/users-repository.js';

const SECRET = 'a'.repeat(48);
const KEY_HASH = hashKey(SECRET);

const user: UserRecord = {
  id: 7,
  username: 'ada',
  passwordHash: null,
  role: 'user',
  group: 'default',
  balance: 1_000,
  used: 0,
  language: null,
  status: 'enabled',
  budgets: [],
  maxConcurrency: null,
  lowBalanceAlert: null,
  createdAt: 0,
};

const key: KeyRecord = {
  id: 3,
  userId: 7,
  name: 'main',
  keyHash: KEY_HASH,
  keyHint: 'sk-aaa...aaa',
  status: 'enabled',
  expiresAt: null,
  unlimitedQuota: false,
  quota: 500,
  usedQuota: 0,
  modelLimits: null,
  ipAllowList: null,
  group: null,
  rpm: null,
  tpm: null,
  budgets: [],
  maxConcurrency: null,
  logBodies: null,
  createdAt: 0,
};

/** A cache over repositories whose key reads wait until `release` and are counted. */
function cacheWithSlowReads() {
  let reads = 0;
  let release: () => void = () => undefined;
  let failNext = false;
  const keys = {
    async findByHash(hash: string) {
      reads += 1;
      await new Promise<void>((resolve) => (release = resolve));
      if (failNext) {
        failNext = false;
        throw new Error('the database went away');
      }
      return hash === KEY_HASH ? key : undefined;
    },
  } as unknown as KeysRepository;
  const users = {
    find: async (id: number) => (id === user.id ? user : undefined),
  } as unknown as UsersRepository;
  const changes = new LocalChangeFeed();
  const cache = new PrincipalCache({ keys, users }, changes);
  return {
    cache,
    changes,
    reads: () => reads,
    release: () => release(),
    failNextRead: () => (failNext = true),
  };
}

test('a key is read from the database once, and an unknown key is remembered as such', async () => {
  const { cache, reads, release } = cacheWithSlowReads();
  const loading = cache.lookup(KEY_HASH);
  expect(cache.lookup(KEY_HASH)).toBe(loading);
  release();
  const entry = await loading;
  expect(entry?.key.id).toBe(3);
  await expect(cache.lookup(KEY_HASH)).resolves.toBe(entry);

  // A flood of a wrong key reads the database once.
  const unknown = cache.lookup('unknown');
  release();
  await expect(unknown).resolves.toBeNull();
  await expect(cache.lookup('unknown')).resolves.toBeNull();
  expect(reads()).toBe(2);
});

test('a change while a key loads keeps the load out of the cache, and a failed load is not kept', async () => {
  const { cache, changes, reads, release, failNextRead } = cacheWithSlowReads();
  const loading = cache.lookup(KEY_HASH);
  await changes.publish('keys');
  release();
  await loading;

  failNextRead();
  const failing = cache.lookup(KEY_HASH);
  expect(failing).not.toBe(loading);
  release();
  await expect(failing).rejects.toThrow('the database went away');
  const again = cache.lookup(KEY_HASH);
  release();
  await expect(again).resolves.toMatchObject({ key: { id: 3 } });
  expect(reads()).toBe(3);
});

test('a refreshed key replaces the cached entry, loaded or still loading', async () => {
  const { cache, release } = cacheWithSlowReads();
  const loading = cache.lookup(KEY_HASH);
  cache.refreshKey(KEY_HASH, (entry) => ({ ...entry, key: { ...entry.key, quota: 400 } }));
  release();
  await loading;
  await expect(cache.lookup(KEY_HASH)).resolves.toMatchObject({ key: { quota: 400 } });

  const loaded = cacheWithSlowReads();
  const first = loaded.cache.lookup(KEY_HASH);
  loaded.release();
  await first;
  loaded.cache.refreshKey(KEY_HASH, (entry) => ({ ...entry, key: { ...entry.key, quota: 300 } }));
  await expect(loaded.cache.lookup(KEY_HASH)).resolves.toMatchObject({ key: { quota: 300 } });
  expect(loaded.reads()).toBe(1);

  // A key the cache does not hold is not loaded by a refresh.
  loaded.cache.refreshKey('unknown', (entry) => entry);
  expect(loaded.reads()).toBe(1);
});

test('a settled entry is readable without a promise; a change or a load still on its way is not', async () => {
  const { cache, changes, release } = cacheWithSlowReads();
  const loading = cache.lookup(KEY_HASH);
  expect(cache.peek(KEY_HASH)).toBeUndefined();
  release();
  const entry = await loading;
  expect(cache.peek(KEY_HASH)).toBe(entry);

  const unknown = cache.lookup('unknown');
  release();
  await unknown;
  expect(cache.peek('unknown')).toBeNull();

  cache.refreshKey(KEY_HASH, (held) => ({ ...held, key: { ...held.key, quota: 200 } }));
  expect(cache.peek(KEY_HASH)).toMatchObject({ key: { quota: 200 } });
  await expect(cache.lookup(KEY_HASH)).resolves.toBe(cache.peek(KEY_HASH));

  await changes.publish('keys');
  expect(cache.peek(KEY_HASH)).toBeUndefined();
  // A load that was on its way when the cache emptied does not make its entry known.
  const before = cache.lookup(KEY_HASH);
  await changes.publish('users');
  release();
  await before;
  expect(cache.peek(KEY_HASH)).toBeUndefined();
});
