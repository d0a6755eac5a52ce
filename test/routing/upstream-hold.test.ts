import { describe, expect, it } from 'vitest';
import { readHealthUpdate } from '../../src/routing/health-update.js';
import { FakeClock, healthWithoutStore, linkedSyncs } from './health-fixture.js';

// admin-api section 7: a pair that answered 429 with Retry-After is not called before that time,
// not even as the only candidate; cooldowns after a 5xx or a timeout still let the last one be tried.

const channel = { id: 1, keys: ['key-one'], models: ['m', 'other'] };
const backup = { id: 2, keys: ['key-two'], models: ['m'] };
const RATE_LIMITED = { message: 'Rate limit reached for m on requests per min' };

describe('a hold after an upstream 429 with Retry-After', () => {
  it('keeps the only candidate from being called until the upstream said, and no longer', () => {
    const { health, clock } = healthWithoutStore();
    const started = clock.ms;
    health.route([channel], 'm').next()!.failed({ retryAfter: '3', rateLimited: RATE_LIMITED });

    const route = health.route([channel], 'm');
    expect(route.next()).toBeUndefined();
    expect(route.held()).toEqual({ untilMs: started + 3000, message: RATE_LIMITED.message });
    expect(health.held([channel], 'm')).toEqual({ untilMs: started + 3000, message: RATE_LIMITED.message });
    expect(health.report(channel).models[0]).toMatchObject({ state: 'cooling_down', failures: 1 });

    // The pair's other models are not held.
    expect(health.held([channel], 'other')).toBeUndefined();
    expect(health.route([channel], 'other').next()).toBeDefined();

    clock.advance(2.999);
    expect(health.route([channel], 'm').next()).toBeUndefined();
    clock.advance(0.001);
    // Past the hold but still cooling down (model_cooldown_s 5): the last resort is tried again.
    expect(health.held([channel], 'm')).toBeUndefined();
    const lastResort = health.route([channel], 'm');
    expect(lastResort.next()?.channel).toBe(channel);
    expect(lastResort.held()).toBeUndefined();
    health.close();
  });

  it('holds no longer than an hour, however long the upstream asks', () => {
    const { health, clock } = healthWithoutStore();
    health.route([channel], 'm').next()!.failed({ retryAfter: '999999', rateLimited: RATE_LIMITED });
    expect(health.held([channel], 'm')?.untilMs).toBe(clock.ms + 3600_000);
    health.close();
  });

  it('is not set by a 429 without Retry-After, nor by a 5xx or a timeout with one', () => {
    const { health } = healthWithoutStore();
    health.route([channel], 'm').next()!.failed({ rateLimited: RATE_LIMITED });
    expect(health.route([channel], 'm').next()?.channel).toBe(channel);
    health.route([backup], 'm').next()!.failed({ retryAfter: '30', detail: 'HTTP 503' });
    expect(health.held([backup], 'm')).toBeUndefined();
    expect(health.route([backup], 'm').next()?.channel).toBe(backup);
    health.close();
  });

  it('passes the held candidate over for another, and after that one failed gives nothing more', () => {
    const { health } = healthWithoutStore();
    health.route([channel], 'm').next()!.failed({ retryAfter: '60', rateLimited: RATE_LIMITED });
    expect(health.held([channel, backup], 'm')).toBeUndefined();
    const route = health.route([channel, backup], 'm');
    const attempt = route.next()!;
    expect(attempt.channel).toBe(backup);
    attempt.failed({ detail: 'HTTP 500' });
    expect(route.next()).toBeUndefined();
    // An attempt was made: its failure is the answer, not the hold.
    expect(route.held()).toBeUndefined();
    // Both down now: the backup cools down after its 500 and is still the last resort.
    expect(health.route([channel, backup], 'm').next()?.channel).toBe(backup);
    health.close();
  });

  it('answers with the hold that ends first when every candidate is held', () => {
    const { health, clock } = healthWithoutStore();
    health
      .route([channel], 'm')
      .next()!
      .failed({ retryAfter: '60', rateLimited: { message: 'later' } });
    health
      .route([backup], 'm')
      .next()!
      .failed({ retryAfter: '10', rateLimited: { message: 'sooner' } });
    expect(health.held([channel, backup], 'm')).toEqual({ untilMs: clock.ms + 10_000, message: 'sooner' });
    const route = health.route([channel, backup], 'm');
    expect(route.next()).toBeUndefined();
    expect(route.held()?.message).toBe('sooner');
    health.close();
  });

  it('is never shortened by a later, shorter Retry-After, and ends with a success', () => {
    const { health, clock } = healthWithoutStore();
    health.route([channel], 'm').next()!.failed({ retryAfter: '30', rateLimited: RATE_LIMITED });
    clock.advance(31);
    // Cooldown over: the trial goes through and is refused again with a shorter wait.
    health
      .route([channel], 'm')
      .next()!
      .failed({ retryAfter: '2', rateLimited: { message: 'again' } });
    expect(health.held([channel], 'm')).toEqual({ untilMs: clock.ms + 2000, message: 'again' });
    clock.advance(60 * 5);
    health.route([channel], 'm').next()!.succeeded();
    expect(health.held([channel], 'm')).toBeUndefined();
    expect(health.report(channel).models[0]).toMatchObject({ state: 'healthy', failures: 0 });
    health.close();
  });

  it('reaches every instance, which then holds the pair too', () => {
    const clock = new FakeClock();
    const [left, right] = linkedSyncs();
    const first = healthWithoutStore({ clock, sync: left });
    const second = healthWithoutStore({ clock, sync: right });
    first.health.route([channel], 'm').next()!.failed({ retryAfter: '5', rateLimited: RATE_LIMITED });
    expect(second.health.held([channel], 'm')).toEqual({
      untilMs: clock.ms + 5000,
      message: RATE_LIMITED.message,
    });
    expect(second.health.route([channel], 'm').next()).toBeUndefined();
    first.health.close();
    second.health.close();
  });
});

describe('readHealthUpdate of a hold', () => {
  const pair = { kind: 'pair', channelId: 1, model: 'm', failures: 1, untilMs: 5, at: 1 };

  it('keeps a well-formed hold and refuses a malformed one', () => {
    const hold = { untilMs: 5, message: 'slow down' };
    expect(readHealthUpdate({ ...pair, hold })).toEqual({ ...pair, hold });
    expect(readHealthUpdate({ ...pair, hold: { untilMs: 5 } })).toBeUndefined();
    expect(readHealthUpdate({ ...pair, hold: { untilMs: -1, message: 'x' } })).toBeUndefined();
    expect(readHealthUpdate({ ...pair, hold: { untilMs: 5, message: 'x'.repeat(1025) } })).toBeUndefined();
    expect(readHealthUpdate({ ...pair, hold: 'soon' })).toBeUndefined();
  });
});
