import { generateKey, maskKey, stripKeyPrefix } from '../../src/auth/key-format.js';
import { hashKey } from '../../src/auth/hash-key.js';
import { usdToNano } from '../../src/billing/money.js';
import type { Settings } from '../../src/config/settings-schema.js';
import type { ChannelChanges, ChannelRecord, NewChannel } from '../../src/store/channels-repository.js';
import type { KeyChanges, KeyRecord, NewKey } from '../../src/store/keys-repository.js';
import type { PriceRecord } from '../../src/store/prices-repository.js';
import type { NewUser, UserChanges, UserRecord } from '../../src/store/users-repository.js';
import type { TestGateway } from './start-test-gateway.js';

/**
 * Test data written straight through the repositories, each write followed by the change
 * announcement the management API makes, so caches see it on the next request. Independent of
 * the management HTTP API.
 */

let sequence = 0;
const nextName = (prefix: string) => `${prefix}-${(sequence += 1)}`;

export async function seedUser(gw: TestGateway, overrides: Partial<NewUser> = {}): Promise<UserRecord> {
  const { repositories, changes } = gw.gateway.services;
  const user = await repositories.users.create({
    username: nextName('user'),
    passwordHash: null,
    role: 'user',
    group: 'default',
    balance: usdToNano(100),
    language: null,
    status: 'enabled',
    ...overrides,
  });
  await changes.publish('users');
  return user;
}

export async function updateUser(gw: TestGateway, id: number, changes: UserChanges): Promise<UserRecord> {
  const user = await gw.gateway.services.repositories.users.update(id, changes);
  if (!user) throw new Error(`no user ${id}`);
  await gw.gateway.services.changes.publish('users');
  return user;
}

export interface SeededKey {
  /** The full key as the creating call returns it: `sk-` and 48 characters. */
  key: string;
  record: KeyRecord;
}

/** A key of the user; `key` overrides the generated secret (the stored hash always matches it). */
export async function seedKey(
  gw: TestGateway,
  userId: number,
  overrides: Partial<Omit<NewKey, 'userId' | 'keyHash' | 'keyHint'>> & { key?: string } = {},
): Promise<SeededKey> {
  const { key = generateKey(), ...fields } = overrides;
  const record = await gw.gateway.services.repositories.keys.create({
    userId,
    name: nextName('key'),
    keyHash: hashKey(stripKeyPrefix(key)),
    keyHint: maskKey(key),
    status: 'enabled',
    expiresAt: null,
    unlimitedQuota: true,
    quota: 0,
    modelLimits: null,
    ipAllowList: null,
    group: null,
    rpm: null,
    tpm: null,
    ...fields,
  });
  await gw.gateway.services.changes.publish('keys');
  return { key, record };
}

export async function updateKey(gw: TestGateway, id: number, changes: KeyChanges): Promise<KeyRecord> {
  const record = await gw.gateway.services.repositories.keys.update(id, changes);
  if (!record) throw new Error(`no key ${id}`);
  await gw.gateway.services.changes.publish('keys');
  return record;
}

export async function deleteKey(gw: TestGateway, id: number): Promise<void> {
  await gw.gateway.services.repositories.keys.delete(id);
  await gw.gateway.services.changes.publish('keys');
}

/** A user with one unlimited key: the common case. */
export async function seedUserWithKey(
  gw: TestGateway,
  options: { user?: Partial<NewUser>; key?: Parameters<typeof seedKey>[2] } = {},
): Promise<SeededKey & { user: UserRecord }> {
  const user = await seedUser(gw, options.user);
  return { user, ...(await seedKey(gw, user.id, options.key)) };
}

/** Where seeded channels point unless told otherwise: a closed local port, so no test reaches a vendor. */
export const UNREACHABLE_UPSTREAM = 'http://127.0.0.1:9';

export async function seedChannel(
  gw: TestGateway,
  overrides: Partial<NewChannel> = {},
): Promise<ChannelRecord> {
  const channel = await gw.gateway.services.repositories.channels.create({
    name: nextName('channel'),
    type: 'openai',
    baseUrl: UNREACHABLE_UPSTREAM,
    keys: ['sk-upstream-test'],
    models: [],
    modelMapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    config: {},
    status: 'enabled',
    ...overrides,
  });
  await gw.gateway.services.changes.publish('channels');
  return channel;
}

export async function updateChannel(
  gw: TestGateway,
  id: number,
  changes: ChannelChanges,
): Promise<ChannelRecord> {
  const channel = await gw.gateway.services.repositories.channels.update(id, changes);
  if (!channel) throw new Error(`no channel ${id}`);
  await gw.gateway.services.changes.publish('channels');
  return channel;
}

export interface PriceInUsd {
  input: number;
  output: number;
  cachedInput?: number | null;
  cacheWrite?: number | null;
  perRequest?: number | null;
  inputAudio?: number | null;
  outputAudio?: number | null;
  perMinute?: number | null;
  perMillionCharacters?: number | null;
}

/** A price in USD per 1M tokens; a single number is used for input and output alike. */
export async function seedPrice(
  gw: TestGateway,
  model: string,
  usd: number | PriceInUsd,
): Promise<PriceRecord> {
  const price = typeof usd === 'number' ? { input: usd, output: usd } : usd;
  const optional = (value: number | null | undefined) =>
    value === undefined || value === null ? null : usdToNano(value);
  const record = await gw.gateway.services.repositories.prices.put({
    model,
    input: usdToNano(price.input),
    output: usdToNano(price.output),
    cachedInput: optional(price.cachedInput),
    cacheWrite: optional(price.cacheWrite),
    perRequest: optional(price.perRequest),
    inputAudio: optional(price.inputAudio),
    outputAudio: optional(price.outputAudio),
    perMinute: optional(price.perMinute),
    perMillionCharacters: optional(price.perMillionCharacters),
  });
  await gw.gateway.services.changes.publish('prices');
  return record;
}

export async function updateSettings(gw: TestGateway, changes: Partial<Settings>): Promise<Settings> {
  return gw.gateway.services.settings.update(changes);
}
