import { describe, expect, it } from 'vitest';
import { orderByHealth, type PairAvailability } from '../../src/routing/order-by-health.js';
import { healthWithoutStore } from './health-fixture.js';

// admin-api section 7: cooling pairs are skipped while another candidate exists, else all soonest first.
describe('orderByHealth', () => {
  const judge = (table: Record<string, PairAvailability>) => (name: string) => table[name]!;
  const ready = { ready: true, availableAtMs: 0 };

  it('keeps the order of pairs that may be tried now and leaves cooling ones out', () => {
    const order = orderByHealth(
      ['a', 'b', 'c', 'd'],
      judge({
        a: { ready: false, availableAtMs: 10 },
        b: ready,
        c: { ready: false, availableAtMs: 5 },
        d: { ready: true, availableAtMs: 3 },
      }),
    );
    expect(order).toEqual(['b', 'd']);
  });

  it('returns every candidate, soonest available first, when none may be tried now', () => {
    const order = orderByHealth(
      ['a', 'b', 'c', 'd'],
      judge({
        a: { ready: false, availableAtMs: 30 },
        b: { ready: false, availableAtMs: 10 },
        c: { ready: false, availableAtMs: 20 },
        d: { ready: false, availableAtMs: 10 },
      }),
    );
    expect(order).toEqual(['b', 'd', 'c', 'a']);
  });

  it('returns nothing for no candidates', () => {
    expect(orderByHealth([], () => ready)).toEqual([]);
  });
});

describe('ChannelHealth ordering and routes', () => {
  const a = { id: 1, keys: ['ka'], models: ['m'] };
  const b = { id: 2, keys: ['kb'], models: ['m'] };
  const c = { id: 3, keys: ['kc'], models: ['m'] };

  function setup() {
    const fixture = healthWithoutStore();
    const fail = (channel: typeof a, retryAfter?: number) => {
      const attempt = fixture.health.route([channel], 'm').next();
      expect(attempt?.channel).toBe(channel);
      attempt?.failed({ retryAfter });
    };
    return { ...fixture, fail };
  }

  it('healthy pairs keep the routing order', () => {
    const { health } = setup();
    expect(health.order([c, a, b], 'm')).toEqual([c, a, b]);
  });

  it('skips a pair cooling down while another candidate exists', () => {
    const { health, fail } = setup();
    fail(a);
    expect(health.order([a, b, c], 'm')).toEqual([b, c]);
    expect(health.order([a, b, c], 'other-model')).toEqual([a, b, c]);
  });

  it('a cooled-down pair with its trial slot free may be tried, in its place', () => {
    const { health, clock, fail } = setup();
    fail(a);
    clock.advance(5);
    expect(health.order([a, b, c], 'm')).toEqual([a, b, c]);
    // ordering claims nothing: asking twice gives the same answer
    expect(health.order([a, b, c], 'm')).toEqual([a, b, c]);
  });

  it('when every pair cools down, all are returned, soonest available first', () => {
    const { health, fail } = setup();
    fail(a, 60);
    fail(b, 10);
    fail(c, 30);
    expect(health.order([a, b, c], 'm')).toEqual([b, c, a]);
    const route = health.route([a, b, c], 'm');
    const tried = [];
    for (let attempt = route.next(); attempt; attempt = route.next()) {
      tried.push(attempt.channel);
      expect(attempt.trial).toBe(false);
      attempt.failed();
    }
    expect(tried).toEqual([b, c, a]);
  });

  it('a route walks the pairs that may be tried, and not the cooling ones after they failed', () => {
    const { health, fail } = setup();
    fail(b);
    const route = health.route([a, b, c], 'm');
    const first = route.next();
    expect(first?.channel).toBe(a);
    first?.failed();
    const second = route.next();
    expect(second?.channel).toBe(c);
    second?.failed();
    expect(route.next()).toBeUndefined();
  });

  it('a route skips a pair another request started a trial on meanwhile', () => {
    const { health, clock, fail } = setup();
    fail(b);
    clock.advance(5);
    const route = health.route([a, b, c], 'm');
    const first = route.next();
    expect(first?.channel).toBe(a);
    const trial = health.route([b], 'm').next();
    expect(trial?.trial).toBe(true);
    first?.failed();
    expect(route.next()?.channel).toBe(c);
  });

  it('a route skips channels with no usable key', () => {
    const { health } = setup();
    const route = health.route([a, b], 'm');
    const first = route.next()!;
    expect(first.key).toBe('ka');
    first.refused();
    // a has no other key: the route moves on to b
    const second = route.next();
    expect(second?.channel).toBe(b);
    expect(health.route([a], 'm').next()).toBeUndefined();
  });
});
