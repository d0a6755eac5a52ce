import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ATTEMPT_WINDOW_MS,
  attemptSubjects,
  MemoryLoginThrottle,
  type AttemptDecision,
  type AttemptTicket,
  type LoginThrottle,
} from '../../src/limits/login-throttle.js';
import { RedisLoginThrottle } from '../../src/limits/redis-login-throttle.js';

interface Variant {
  name: string;
  create(now: () => number): LoginThrottle;
}

const variants: Variant[] = [{ name: 'memory', create: (now) => new MemoryLoginThrottle(now) }];
const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  variants.push({
    name: 'redis',
    create: (now) =>
      new RedisLoginThrottle(redisUrl, { prefix: `test:login:${randomBytes(6).toString('hex')}`, now }),
  });
}

const BASE = 1_700_000_000_000;
const SECOND = 1000;

function ticketOf(decision: AttemptDecision): AttemptTicket {
  if (!decision.allowed) throw new Error(`refused for ${decision.retryAfterSeconds} s`);
  return decision.ticket;
}

describe.each(variants)('$name login throttle', (variant) => {
  let throttle: LoginThrottle;
  let clock = BASE;
  const now = () => clock;
  afterEach(async () => throttle.close());

  const failTimes = async (subjects: string[], times: number, stepMs = 0) => {
    for (let attempt = 0; attempt < times; attempt += 1) {
      ticketOf(await throttle.begin(subjects));
      clock += stepMs;
    }
  };

  test('admits 10 attempts in 15 minutes, refuses the 11th until the oldest is 15 minutes old', async () => {
    clock = BASE;
    throttle = variant.create(now);
    await failTimes(['username:alice'], 10, 10 * SECOND);
    // The first attempt was at BASE: 100 s have passed.
    expect(await throttle.begin(['username:alice'])).toEqual({ allowed: false, retryAfterSeconds: 800 });
    clock = BASE + ATTEMPT_WINDOW_MS - 1;
    expect(await throttle.begin(['username:alice'])).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock = BASE + ATTEMPT_WINDOW_MS;
    ticketOf(await throttle.begin(['username:alice']));
    // One slot freed, and taken again: the second attempt (at BASE + 10 s) is now the oldest.
    expect(await throttle.begin(['username:alice'])).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  test('refuses when any subject of the attempt is at the limit, and counts refused attempts nowhere', async () => {
    clock = BASE;
    throttle = variant.create(now);
    await failTimes(['ip:10.0.0.1'], 10);
    const refused = await throttle.begin(['ip:10.0.0.1', 'username:bob']);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 900 });
    // Bob's username took no count from the refused attempt: nine more are still admitted.
    await failTimes(['username:bob'], 10);
    expect((await throttle.begin(['username:bob'])).allowed).toBe(false);
    expect((await throttle.begin(['ip:10.0.0.2'])).allowed).toBe(true);
  });

  test('a successful attempt stops counting, and the subjects to clear forget their failures', async () => {
    clock = BASE;
    throttle = variant.create(now);
    const subjects = attemptSubjects({ username: 'carol', clientIp: '10.0.0.3' });
    expect(subjects).toEqual(['ip:10.0.0.3', 'username:carol']);
    await failTimes(subjects, 9);
    const success = ticketOf(await throttle.begin(subjects));
    await throttle.succeed(success, ['username:carol']);
    // The address still has its nine failures and one more is admitted; the username starts afresh.
    await failTimes(['ip:10.0.0.3'], 1);
    expect((await throttle.begin(['ip:10.0.0.3'])).allowed).toBe(false);
    await failTimes(['username:carol'], 10);
    expect((await throttle.begin(['username:carol'])).allowed).toBe(false);
  });

  test('counts an attempt from its start, so concurrent attempts cannot pass the limit together', async () => {
    clock = BASE;
    throttle = variant.create(now);
    const decisions = await Promise.all(Array.from({ length: 15 }, () => throttle.begin(['username:dave'])));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });
});

test('a Redis throttle counts in the process while Redis cannot be reached', async () => {
  const errors: unknown[] = [];
  // Port 1 on loopback: nothing listens, every command fails.
  const throttle = new RedisLoginThrottle('redis://127.0.0.1:1', { onError: (error) => errors.push(error) });
  try {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const decision = await throttle.begin(['username:erin']);
      expect(decision.allowed).toBe(true);
      if (attempt === 0 && decision.allowed) await throttle.succeed(decision.ticket, []);
    }
    expect((await throttle.begin(['username:erin'])).allowed).toBe(true);
    expect(await throttle.begin(['username:erin'])).toMatchObject({ allowed: false });
    expect(errors.length).toBeGreaterThan(0);
  } finally {
    await throttle.close();
  }
});
