import { describe, expect, it } from 'vitest';
import { cooldownSeconds } from '../../src/routing/cooldown-seconds.js';
import { parseRetryAfter } from '../../src/routing/parse-retry-after.js';
import { healthWithoutStore } from './health-fixture.js';

// DESIGN section 6, admin-api section 7: a circuit breaker per (channel, model).
const channel = { id: 1, keys: ['key-one'], models: ['m', 'other'] };
const other = { id: 2, keys: ['key-two'], models: ['m'] };

function failOnce(health: ReturnType<typeof healthWithoutStore>['health'], retryAfter?: string) {
  const attempt = health.route([channel], 'm').next();
  expect(attempt?.channel).toBe(channel);
  attempt?.failed({ retryAfter });
  return attempt;
}

describe('cooldownSeconds', () => {
  it('doubles per consecutive failure up to the maximum', () => {
    const seconds = [1, 2, 3, 4, 5, 6, 7].map((failures) =>
      cooldownSeconds({ failures, baseSeconds: 5, maxSeconds: 60 }),
    );
    expect(seconds).toEqual([5, 10, 20, 40, 60, 60, 60]);
    expect(cooldownSeconds({ failures: 5000, baseSeconds: 5, maxSeconds: 300 })).toBe(300);
  });

  it('is never less than Retry-After, itself capped at an hour', () => {
    expect(cooldownSeconds({ failures: 1, baseSeconds: 5, maxSeconds: 300, retryAfterSeconds: 120 })).toBe(
      120,
    );
    expect(cooldownSeconds({ failures: 1, baseSeconds: 5, maxSeconds: 300, retryAfterSeconds: 1 })).toBe(5);
    expect(cooldownSeconds({ failures: 1, baseSeconds: 5, maxSeconds: 300, retryAfterSeconds: 86_400 })).toBe(
      3600,
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter(['7'], now)).toBe(7);
    expect(parseRetryAfter(12, now)).toBe(12);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read and caps at an hour', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('999999', now)).toBe(3600);
  });
});

describe('a (channel, model) breaker', () => {
  it('cools down for the base cooldown, doubling per failed trial, capped by model_cooldown_max_s', () => {
    const { health, clock, setSettings } = healthWithoutStore();
    setSettings({ model_cooldown_s: 5, model_cooldown_max_s: 30 });
    const cooldowns: number[] = [];
    for (let failure = 1; failure <= 5; failure += 1) {
      const start = clock.ms;
      failOnce(health);
      const [entry] = health.report(channel).models;
      expect(entry).toMatchObject({ model: 'm', state: 'cooling_down', failures: failure });
      cooldowns.push((entry!.until! * 1000 - start) / 1000);
      clock.ms = entry!.until! * 1000;
    }
    expect(cooldowns).toEqual([5, 10, 20, 30, 30]);
  });

  it('reads the cooldown settings on every failure', () => {
    const { health, clock, setSettings } = healthWithoutStore();
    failOnce(health);
    expect(health.report(channel).models[0]?.until).toBe(Math.ceil(clock.ms / 1000) + 5);
    clock.advance(5);
    setSettings({ model_cooldown_s: 60, model_cooldown_max_s: 1000 });
    failOnce(health);
    expect(health.report(channel).models[0]?.until).toBe(Math.ceil(clock.ms / 1000) + 120);
  });

  it('never cools down for less than the upstream Retry-After', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health, '120');
    expect(health.report(channel).models[0]).toMatchObject({
      state: 'cooling_down',
      failures: 1,
      until: Math.ceil(clock.ms / 1000) + 120,
    });
    clock.advance(119);
    expect(health.order([channel], 'm')).toEqual([channel]); // still listed: the only candidate
    expect(health.order([channel, other], 'm')).toEqual([other]);
    clock.advance(1);
    expect(health.report(channel).models[0]?.state).toBe('probing');
  });

  it('caps a huge Retry-After at an hour', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health, '86400');
    expect(health.report(channel).models[0]?.until).toBe(Math.ceil(clock.ms / 1000) + 3600);
  });

  it('takes only the failing model out; the channel other models stay healthy', () => {
    const { health } = healthWithoutStore();
    failOnce(health);
    expect(health.report(channel).models.map((entry) => entry.state)).toEqual(['cooling_down', 'healthy']);
    expect(health.order([channel, other], 'other')).toEqual([channel, other]);
  });

  it('lets exactly one trial through after the cooldown; concurrent requests treat it as cooling down', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health);
    clock.advance(5);
    const trial = health.route([channel, other], 'm').next();
    expect(trial).toMatchObject({ channel, trial: true });
    expect(health.report(channel).models[0]?.state).toBe('probing');
    // A concurrent request goes elsewhere...
    expect(health.route([channel, other], 'm').next()?.channel).toBe(other);
    expect(health.order([channel, other], 'm')).toEqual([other]);
    // ...and when the pair is its only candidate it still goes, but not as a second trial.
    expect(health.route([channel], 'm').next()).toMatchObject({ channel, trial: false });
  });

  it('a trial ended without an outcome gives the slot back', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health);
    clock.advance(5);
    const trial = health.route([channel, other], 'm').next();
    expect(trial?.trial).toBe(true);
    trial?.abandoned();
    expect(health.report(channel).models[0]).toMatchObject({ state: 'probing', failures: 1 });
    const next = health.route([channel, other], 'm').next();
    expect(next).toMatchObject({ channel, trial: true });
  });

  it('a successful trial closes the breaker', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health);
    failOnce(health);
    clock.advance(10);
    const trial = health.route([channel], 'm').next();
    expect(trial?.trial).toBe(true);
    trial?.succeeded();
    expect(health.report(channel).models[0]).toEqual({
      model: 'm',
      state: 'healthy',
      failures: 0,
      until: null,
    });
    // A later failure starts from the base cooldown again.
    failOnce(health);
    expect(health.report(channel).models[0]).toMatchObject({
      failures: 1,
      until: Math.ceil(clock.ms / 1000) + 5,
    });
  });

  it('a failed trial cools the pair down again, for twice as long', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health);
    clock.advance(5);
    const trial = health.route([channel], 'm').next();
    trial?.failed({ retryAfter: undefined });
    expect(health.report(channel).models[0]).toMatchObject({
      state: 'cooling_down',
      failures: 2,
      until: Math.ceil(clock.ms / 1000) + 10,
    });
  });

  it('reports one outcome per attempt; later calls change nothing', () => {
    const { health, clock } = healthWithoutStore();
    failOnce(health);
    clock.advance(5);
    const trial = health.route([channel], 'm').next()!;
    trial.succeeded();
    trial.failed();
    trial.abandoned();
    expect(health.report(channel).models[0]?.state).toBe('healthy');
  });

  it('a trial that never reports frees its slot after the lease', () => {
    const { health, clock } = healthWithoutStore({ trialLeaseMs: 60_000 });
    failOnce(health);
    clock.advance(5);
    expect(health.route([channel, other], 'm').next()?.trial).toBe(true);
    expect(health.route([channel, other], 'm').next()?.channel).toBe(other);
    clock.advance(60);
    expect(health.route([channel, other], 'm').next()).toMatchObject({ channel, trial: true });
  });

  it('a success on a pair cooling down (its last resort) closes it too', () => {
    const { health } = healthWithoutStore();
    failOnce(health);
    const attempt = health.route([channel], 'm').next();
    expect(attempt).toMatchObject({ channel, trial: false });
    attempt?.succeeded();
    expect(health.report(channel).models[0]?.state).toBe('healthy');
  });
});
