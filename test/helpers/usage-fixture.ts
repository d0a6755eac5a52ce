import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { NewUsageLog } from '../../src/store/usage-logs-repository.js';
import { signedInClient, type ConsoleClient } from './console-client.js';
import type { TestGateway } from './start-test-gateway.js';

export const PASSWORD = 'stats password';
/** A UTC midnight: hour and day buckets both start on it. */
export const BASE = 1_699_920_000;
export const HOUR = 3600;
export const DAY = 86_400;
/** Two days from `BASE`, as query parameters; one record lies just before it. */
export const WINDOW = `from=${BASE}&to=${BASE + 2 * DAY - 1}`;

export interface StatsRow {
  t: number;
  group: string | number | null;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  avg_latency_ms: number | null;
  avg_first_byte_ms: number | null;
}

export type Grouping = 'model' | 'channel' | 'user' | 'key';

/** The series `/api/stats` should answer, computed the plain way from the records themselves. */
export function expectedSeries(
  logs: readonly NewUsageLog[],
  options: { bucket: 'hour' | 'day'; groupBy: Grouping },
): StatsRow[] {
  const size = options.bucket === 'hour' ? HOUR : DAY;
  const groupOf = (log: NewUsageLog) =>
    ({ model: log.model, channel: log.channelId, user: log.userId, key: log.keyId })[options.groupBy];
  const buckets = new Map<string, { t: number; group: string | number | null; logs: NewUsageLog[] }>();
  for (const log of logs) {
    const t = log.createdAt - (log.createdAt % size);
    const group = groupOf(log);
    const id = `${t}|${String(group)}`;
    const bucket = buckets.get(id) ?? { t, group, logs: [] };
    bucket.logs.push(log);
    buckets.set(id, bucket);
  }
  const average = (values: number[]) =>
    values.length === 0 ? null : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
  const rank = (group: string | number | null) =>
    group === null ? '' : typeof group === 'number' ? String(group).padStart(20, '0') : group;
  return [...buckets.values()]
    .sort((a, b) => a.t - b.t || (rank(a.group) < rank(b.group) ? -1 : 1))
    .map(({ t, group, logs: inBucket }) => ({
      t,
      group,
      requests: inBucket.length,
      errors: inBucket.filter((log) => log.statusCode !== 200).length,
      prompt_tokens: inBucket.reduce((sum, log) => sum + log.promptTokens, 0),
      completion_tokens: inBucket.reduce((sum, log) => sum + log.completionTokens, 0),
      cost: inBucket.reduce((sum, log) => sum + log.cost, 0) / 1e9,
      avg_latency_ms: average(inBucket.map((log) => log.latencyMs)),
      avg_first_byte_ms: average(
        inBucket.flatMap((log) => (log.firstByteMs === null ? [] : [log.firstByteMs])),
      ),
    }));
}

export interface UsageFixture {
  alice: { id: number; username: string };
  bob: { id: number; username: string };
  aliceClient: ConsoleClient;
  channels: { first: number; second: number };
  /** The records stored, oldest first (their ids ascend in this order). */
  logs: NewUsageLog[];
}

/**
 * Two users (alice signed in), two channels and eight usage records written through the
 * repository: over two days from `BASE`, of two models, with errors, a record without a channel
 * and amounts down to one nano-dollar.
 */
export async function seedUsage(gw: TestGateway): Promise<UsageFixture> {
  const user = async (prefix: string) => {
    const username = `${prefix}-${randomBytes(3).toString('hex')}`;
    const response = await gw.admin('POST', '/users', { username, password: PASSWORD });
    expect(response.status).toBe(201);
    return response.body as { id: number; username: string };
  };
  const alice = await user('alice');
  const bob = await user('bob');
  const aliceClient = await signedInClient(gw, { username: alice.username, password: PASSWORD });
  const channel = async (name: string) =>
    (
      await gw.admin('POST', '/channels', {
        name,
        type: 'openai',
        base_url: 'http://127.0.0.1:9',
        keys: ['k'],
        models: ['gpt-4o'],
      })
    ).body.id as number;
  const channels = { first: await channel('first'), second: await channel('second') };

  const log = (fields: Partial<NewUsageLog>): NewUsageLog => ({
    requestId: `req-${randomBytes(4).toString('hex')}`,
    createdAt: BASE,
    userId: alice.id,
    keyId: 11,
    channelId: channels.first,
    model: 'gpt-4o',
    endpoint: 'chat-completions',
    stream: false,
    statusCode: 200,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    latencyMs: 100,
    firstByteMs: null,
    error: null,
    ...fields,
  });
  // In time order, so ids ascend with time.
  const logs = [
    log({ createdAt: BASE - 1, promptTokens: 5, cost: 5_000_000_000 }),
    log({
      createdAt: BASE + 10,
      promptTokens: 100,
      completionTokens: 50,
      cost: 1_000_000_001,
      firstByteMs: 20,
    }),
    log({
      createdAt: BASE + 3599,
      keyId: 12,
      model: 'claude-sonnet-4',
      statusCode: 502,
      promptTokens: 10,
      latencyMs: 300,
      error: 'upstream',
    }),
    log({
      createdAt: BASE + 3600,
      channelId: channels.second,
      promptTokens: 7,
      completionTokens: 3,
      cost: 123_456_789,
      latencyMs: 200,
      firstByteMs: 40,
    }),
    log({
      createdAt: BASE + 2 * HOUR + 5,
      userId: bob.id,
      keyId: 21,
      statusCode: 429,
      latencyMs: 50,
      promptTokens: 1,
    }),
    log({
      createdAt: BASE + DAY + 1,
      userId: bob.id,
      keyId: 21,
      channelId: null,
      statusCode: 0,
      latencyMs: 10,
      error: 'interrupted',
    }),
    log({
      createdAt: BASE + DAY + 100,
      promptTokens: 1,
      completionTokens: 1,
      cost: 1,
      latencyMs: 400,
      firstByteMs: 60,
    }),
    log({
      createdAt: BASE + DAY + 200,
      userId: bob.id,
      keyId: 21,
      model: 'claude-sonnet-4',
      promptTokens: 2,
      completionTokens: 2,
      cost: 999_999_999,
      latencyMs: 30,
    }),
  ];
  await gw.gateway.services.repositories.usageLogs.insertMany(logs);
  return { alice, bob, aliceClient, channels, logs };
}
