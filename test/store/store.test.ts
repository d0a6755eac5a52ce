import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Budget } from '../../src/billing/budgets/budget.js';
import type { Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import type { NewUsageLog } from '../../src/store/usage-logs-repository.js';
import { storeVariants } from '../helpers/test-stores.js';

const newUser = (username: string) => ({
  username,
  passwordHash: null,
  role: 'user' as const,
  group: 'default',
  balance: 0,
  language: null,
  status: 'enabled' as const,
});

const newKey = (userId: number, keyHash: string) => ({
  userId,
  name: 'k',
  keyHash,
  keyHint: 'sk-abcd...wxyz',
  status: 'enabled' as const,
  expiresAt: null,
  unlimitedQuota: false,
  quota: 5_000_000_000,
  modelLimits: ['gpt-4o', 'claude-sonnet-4'],
  ipAllowList: ['10.0.0.0/8', '::1'],
  group: null,
  rpm: 60,
  tpm: null,
});

const DAILY_BUDGET: Budget = {
  period: 'day',
  hours: null,
  usd: 12_345_678_901,
  tokens: null,
  requests: 100,
  models: ['gpt-4o'],
  alertAt: [0.5, 0.9],
};

const SESSION_BUDGET: Budget = {
  period: 'hours',
  hours: 5,
  usd: null,
  tokens: 1_000_000,
  requests: null,
  models: null,
  alertAt: [],
};

const usageLog = (overrides: Partial<NewUsageLog>): NewUsageLog => ({
  requestId: 'r',
  createdAt: 1_700_000_000,
  userId: 1,
  keyId: 1,
  channelId: null,
  model: 'gpt-4o',
  endpoint: 'chat-completions',
  stream: false,
  statusCode: 200,
  promptTokens: 10,
  completionTokens: 20,
  cachedTokens: 3,
  cacheWriteTokens: 0,
  reasoningTokens: 5,
  cost: 123,
  latencyMs: 40,
  firstByteMs: null,
  error: null,
  ...overrides,
});

describe.each(storeVariants())('store on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;

  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
  });
  afterEach(async () => store.close());

  test('migrations are recorded and running them again changes nothing', async () => {
    await migrateToLatest(store);
    await repositories.users.create(newUser('alice'));
    await migrateToLatest(store);
    expect((await repositories.users.findByUsername('alice'))?.username).toBe('alice');
  });

  test('users: create, read, update, list newest first, delete', async () => {
    const alice = await repositories.users.create({
      ...newUser('alice'),
      language: 'zh-CN',
      balance: 1_500_000_000,
    });
    const bob = await repositories.users.create(newUser('bob'));
    expect(alice).toMatchObject({
      username: 'alice',
      role: 'user',
      group: 'default',
      balance: 1_500_000_000,
      used: 0,
    });
    expect(alice.language).toBe('zh-CN');
    expect(alice.createdAt).toBeGreaterThan(1_700_000_000);
    expect((await repositories.users.list({ limit: 10, offset: 0 })).map((u) => u.username)).toEqual([
      'bob',
      'alice',
    ]);
    expect((await repositories.users.list({ limit: 1, offset: 1 })).map((u) => u.username)).toEqual([
      'alice',
    ]);
    const updated = await repositories.users.update(bob.id, {
      status: 'disabled',
      group: 'vip',
      role: 'admin',
    });
    expect(updated).toMatchObject({ status: 'disabled', group: 'vip', role: 'admin' });
    expect(await repositories.users.delete(alice.id)).toMatchObject({ id: alice.id });
    expect(await repositories.users.find(alice.id)).toBeUndefined();
    expect(await repositories.users.update(alice.id, { status: 'enabled' })).toBeUndefined();
  });

  test('usernames are unique', async () => {
    await repositories.users.create(newUser('alice'));
    await expect(repositories.users.create(newUser('alice'))).rejects.toThrow();
  });

  test('amounts beyond 32 bits round-trip exactly', async () => {
    const rich = await repositories.users.create({ ...newUser('rich'), balance: 9_000_000_000_123 });
    expect((await repositories.users.find(rich.id))?.balance).toBe(9_000_000_000_123);
    const big = Number.MAX_SAFE_INTEGER;
    await repositories.users.update(rich.id, { balance: big });
    expect((await repositories.users.find(rich.id))?.balance).toBe(big);
  });

  test('concurrent credits never lose an update, and each is recorded with where it came from', async () => {
    const user = await repositories.users.create(newUser('carol'));
    const credit = (index: number) =>
      store.db.transaction().execute((trx) =>
        repositories.balanceCredits.credit(trx, {
          userId: user.id,
          amount: 100_000_001,
          kind: 'redemption',
          reference: `code-${index}`,
        }),
      );
    expect(await Promise.all(Array.from({ length: 40 }, (_, index) => credit(index)))).toEqual(
      Array.from({ length: 40 }, () => true),
    );
    expect((await repositories.users.find(user.id))?.balance).toBe(40 * 100_000_001);
    const credits = await repositories.balanceCredits.listForUser(user.id, { limit: 100, offset: 0 });
    expect(credits).toHaveLength(40);
    expect(credits[0]).toMatchObject({ userId: user.id, amount: 100_000_001, kind: 'redemption' });
    expect(new Set(credits.map((entry) => entry.reference)).size).toBe(40);
    expect(
      await repositories.balanceCredits.credit(store.db, {
        userId: 999_999,
        amount: 1,
        kind: 'admin',
        reference: null,
      }),
    ).toBe(false);
  });

  test('keys: found by hash, JSON columns and booleans round-trip, deleted with their owner', async () => {
    const user = await repositories.users.create(newUser('dave'));
    const key = await repositories.keys.create(newKey(user.id, 'a'.repeat(64)));
    expect(await repositories.keys.findByHash('a'.repeat(64))).toEqual(key);
    expect(key).toMatchObject({
      unlimitedQuota: false,
      quota: 5_000_000_000,
      usedQuota: 0,
      modelLimits: ['gpt-4o', 'claude-sonnet-4'],
      ipAllowList: ['10.0.0.0/8', '::1'],
      rpm: 60,
      tpm: null,
    });
    const changed = await repositories.keys.update(key.id, {
      unlimitedQuota: true,
      modelLimits: null,
      expiresAt: 5,
    });
    expect(changed).toMatchObject({ unlimitedQuota: true, modelLimits: null, expiresAt: 5 });
    await repositories.keys.create(newKey(user.id, 'b'.repeat(64)));
    expect(await repositories.keys.list({ limit: 10, offset: 0, userId: user.id })).toHaveLength(2);
    expect(await repositories.keys.list({ limit: 10, offset: 0, userId: user.id + 1 })).toHaveLength(0);
    await expect(repositories.keys.create(newKey(user.id, 'b'.repeat(64)))).rejects.toThrow();
    await repositories.users.delete(user.id);
    expect(await repositories.keys.findByHash('a'.repeat(64))).toBeUndefined();
  });

  test('channels keep their arrays and mappings', async () => {
    const channel = await repositories.channels.create({
      name: 'main',
      type: 'openai',
      baseUrl: null,
      keys: ['k1', 'k2'],
      models: ['gpt-4o', 'gpt-4o-mini'],
      modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
      groups: ['default', 'vip'],
      priority: 10,
      weight: 3,
      endpoints: null,
      config: {},
      status: 'enabled',
    });
    expect(await repositories.channels.find(channel.id)).toEqual(channel);
    const updated = await repositories.channels.update(channel.id, {
      endpoints: ['openai'],
      status: 'auto_disabled',
    });
    expect(updated).toMatchObject({ endpoints: ['openai'], status: 'auto_disabled', keys: ['k1', 'k2'] });
    expect(await repositories.channels.all()).toHaveLength(1);
    expect(await repositories.channels.delete(channel.id)).toMatchObject({ id: channel.id });
    expect(await repositories.channels.all()).toHaveLength(0);
  });

  test('prices and groups are replaced in place', async () => {
    await repositories.prices.put({
      model: 'gpt-4o',
      input: 2_500_000_000,
      output: 10_000_000_000,
      cachedInput: null,
      cacheWrite: null,
      perRequest: null,
      inputAudio: null,
      outputAudio: null,
      perMinute: null,
      perMillionCharacters: null,
    });
    await repositories.prices.put({
      model: 'gpt-4o',
      input: 1,
      output: 2,
      cachedInput: 3,
      cacheWrite: 4,
      perRequest: 5,
      inputAudio: null,
      outputAudio: null,
      perMinute: null,
      perMillionCharacters: null,
    });
    expect(await repositories.prices.all()).toEqual([
      {
        model: 'gpt-4o',
        input: 1,
        output: 2,
        cachedInput: 3,
        cacheWrite: 4,
        perRequest: 5,
        inputAudio: null,
        outputAudio: null,
        perMinute: null,
        perMillionCharacters: null,
      },
    ]);
    expect(await repositories.prices.delete('gpt-4o')).toMatchObject({ model: 'gpt-4o' });
    expect(await repositories.prices.find('gpt-4o')).toBeUndefined();

    await repositories.groups.put({ name: 'vip', ratio: 0.8 });
    await repositories.groups.put({ name: 'vip', ratio: 0.75 });
    expect(await repositories.groups.all()).toEqual([
      { name: 'vip', ratio: 0.75, budgets: [], maxConcurrency: null, logBodies: false },
    ]);
  });

  test('keys: budgets and the concurrency cap round-trip, none unless given', async () => {
    const user = await repositories.users.create(newUser('erin'));
    const plain = await repositories.keys.create(newKey(user.id, 'c'.repeat(64)));
    expect(plain).toMatchObject({ budgets: [], maxConcurrency: null });
    const limited = await repositories.keys.create({
      ...newKey(user.id, 'd'.repeat(64)),
      budgets: [DAILY_BUDGET],
      maxConcurrency: 3,
    });
    expect(await repositories.keys.find(limited.id)).toMatchObject({
      budgets: [DAILY_BUDGET],
      maxConcurrency: 3,
    });
    const renamed = await repositories.keys.update(limited.id, { name: 'renamed' });
    expect(renamed).toMatchObject({ budgets: [DAILY_BUDGET], maxConcurrency: 3 });
    const cleared = await repositories.keys.update(limited.id, { budgets: [], maxConcurrency: null });
    expect(cleared).toMatchObject({ budgets: [], maxConcurrency: null });
    expect(await repositories.keys.find(limited.id)).toEqual(cleared);
  });

  test('users: budgets, the concurrency cap and the low-balance alert round-trip, none unless given', async () => {
    const plain = await repositories.users.create(newUser('frank'));
    expect(plain).toMatchObject({ budgets: [], maxConcurrency: null, lowBalanceAlert: null });
    const limited = await repositories.users.create({
      ...newUser('grace'),
      budgets: [SESSION_BUDGET],
      maxConcurrency: 2,
      lowBalanceAlert: 9_000_000_000_123,
    });
    expect(await repositories.users.find(limited.id)).toMatchObject({
      budgets: [SESSION_BUDGET],
      maxConcurrency: 2,
      lowBalanceAlert: 9_000_000_000_123,
    });
    const changed = await repositories.users.update(limited.id, {
      budgets: [DAILY_BUDGET, SESSION_BUDGET],
      lowBalanceAlert: 1,
    });
    expect(changed).toMatchObject({
      budgets: [DAILY_BUDGET, SESSION_BUDGET],
      maxConcurrency: 2,
      lowBalanceAlert: 1,
    });
    const cleared = await repositories.users.update(limited.id, {
      maxConcurrency: null,
      lowBalanceAlert: null,
    });
    expect(cleared).toMatchObject({ budgets: [DAILY_BUDGET, SESSION_BUDGET], maxConcurrency: null });
    expect((await repositories.users.find(limited.id))?.lowBalanceAlert).toBeNull();
  });

  test('users: the balance.low flag is cleared by a balance or threshold change that leaves the balance at or above it', async () => {
    const user = await repositories.users.create({ ...newUser('hal'), balance: 50, lowBalanceAlert: 100 });
    const alerted = async () => {
      const row = await store.db
        .selectFrom('users')
        .select('low_balance_alerted')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      return Boolean(row.low_balance_alerted);
    };
    const markAlerted = () =>
      store.db
        .updateTable('users')
        .set({ low_balance_alerted: variant.name === 'postgres' ? true : 1 })
        .where('id', '=', user.id)
        .execute();

    const topUp = (amount: number) =>
      repositories.balanceCredits.credit(store.db, {
        userId: user.id,
        amount,
        kind: 'admin',
        reference: null,
      });
    await markAlerted();
    await topUp(49);
    expect(await alerted()).toBe(true);
    await topUp(1);
    expect(await alerted()).toBe(false);

    await markAlerted();
    await repositories.users.update(user.id, { balance: 99, language: 'en' });
    expect(await alerted()).toBe(true);
    await repositories.users.update(user.id, { lowBalanceAlert: 99 });
    expect(await alerted()).toBe(false);

    await markAlerted();
    await repositories.users.update(user.id, { balance: 10 });
    expect(await alerted()).toBe(true);
    await repositories.users.update(user.id, { lowBalanceAlert: null });
    expect(await alerted()).toBe(false);

    await markAlerted();
    await repositories.users.update(user.id, { balance: 500, lowBalanceAlert: 400 });
    expect(await alerted()).toBe(false);
  });

  test('groups: a write keeps the members it leaves out; a new group starts from the defaults', async () => {
    expect(await repositories.groups.find('team')).toBeUndefined();
    expect(await repositories.groups.put({ name: 'team', budgets: [DAILY_BUDGET] })).toEqual({
      name: 'team',
      ratio: 1,
      budgets: [DAILY_BUDGET],
      maxConcurrency: null,
      logBodies: false,
    });
    expect(await repositories.groups.put({ name: 'team', ratio: 0.5, maxConcurrency: 8 })).toEqual({
      name: 'team',
      ratio: 0.5,
      budgets: [DAILY_BUDGET],
      maxConcurrency: 8,
      logBodies: false,
    });
    const unchanged = {
      name: 'team',
      ratio: 0.5,
      budgets: [DAILY_BUDGET],
      maxConcurrency: 8,
      logBodies: false,
    };
    expect(await repositories.groups.put({ name: 'team' })).toEqual(unchanged);
    expect(await repositories.groups.find('team')).toEqual(unchanged);
    expect(await repositories.groups.put({ name: 'empty' })).toEqual({
      name: 'empty',
      ratio: 1,
      budgets: [],
      maxConcurrency: null,
      logBodies: false,
    });
    await repositories.groups.put({ name: 'team', budgets: [], maxConcurrency: null, logBodies: true });
    expect(await repositories.groups.all()).toEqual([
      { name: 'empty', ratio: 1, budgets: [], maxConcurrency: null, logBodies: false },
      { name: 'team', ratio: 0.5, budgets: [], maxConcurrency: null, logBodies: true },
    ]);
  });

  test('named values: put replaces, putIfAbsent writes once', async () => {
    await repositories.settings.put('retry_times', '3');
    await repositories.settings.put('retry_times', '4');
    expect(await repositories.settings.get('retry_times')).toBe('4');
    expect(await repositories.systemState.putIfAbsent('token', 'first')).toBe(true);
    expect(await repositories.systemState.putIfAbsent('token', 'second')).toBe(false);
    expect(await repositories.systemState.get('token')).toBe('first');
    expect([...(await repositories.settings.all()).keys()]).toEqual(['retry_times']);
  });

  test('usage logs: batch insert, filters, newest first', async () => {
    await repositories.usageLogs.insertMany([
      usageLog({ requestId: 'a', userId: 1, keyId: 1, model: 'gpt-4o' }),
      usageLog({
        requestId: 'b',
        userId: 2,
        keyId: 2,
        model: 'claude',
        stream: true,
        firstByteMs: 12,
        audioSeconds: 12.375,
      }),
      usageLog({
        requestId: 'c',
        userId: 1,
        keyId: 3,
        model: 'claude',
        error: 'boom',
        statusCode: 502,
        cost: 0,
        characters: 1_234,
      }),
    ]);
    await repositories.usageLogs.insertMany([]);
    const all = await repositories.usageLogs.list({ limit: 10, offset: 0 });
    expect(all.map((log) => log.requestId)).toEqual(['c', 'b', 'a']);
    expect(all[1]).toMatchObject({ stream: true, firstByteMs: 12, cachedTokens: 3, reasoningTokens: 5 });
    expect(all[0]).toMatchObject({ error: 'boom', statusCode: 502, cost: 0 });
    // What audio requests are billed by, null for the others.
    expect(all.map((log) => [log.audioSeconds, log.characters])).toEqual([
      [null, 1_234],
      [12.375, null],
      [null, null],
    ]);
    const byUser = await repositories.usageLogs.list({ userId: 1, limit: 10, offset: 0 });
    expect(byUser.map((log) => log.requestId)).toEqual(['c', 'a']);
    const byModel = await repositories.usageLogs.list({ model: 'claude', keyId: 2, limit: 10, offset: 0 });
    expect(byModel.map((log) => log.requestId)).toEqual(['b']);
  });
});
