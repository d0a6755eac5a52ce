import { describe, expect, it } from 'vitest';
import type { StickyStore } from '../../src/routing/policy/affinity/redis-sticky-store.js';
import { StickyRoutes, type StickyChoice } from '../../src/routing/policy/affinity/sticky-routes.js';
import { readStickyUpdate, type StickyUpdate } from '../../src/routing/policy/affinity/sticky-update.js';

const ID = '0123456789abcdef0123456789abcdef';
const OTHER_ID = 'fedcba9876543210fedcba9876543210';
const TTL = 600_000;
const choice: StickyChoice = { channelId: 3, model: 'gpt-4o' };

/** A table on a clock the test moves, recording what it publishes. */
function stickyRoutes(options: { store?: StickyStore; maxEntries?: number } = {}) {
  const clock = { ms: 1_700_000_000_000 };
  const published: StickyUpdate[] = [];
  const errors: unknown[] = [];
  const routes = new StickyRoutes({
    now: () => clock.ms,
    publish: (update) => void published.push(update),
    onError: (error) => void errors.push(error),
    ...options,
  });
  return { routes, clock, published, errors };
}

/** A store in memory that counts its calls. */
function memoryStore() {
  const held = new Map<string, StickyChoice>();
  const calls = { get: 0, set: [] as { id: string; choice: StickyChoice; ttlMs: number }[] };
  const store: StickyStore = {
    get: async (id) => {
      calls.get++;
      return held.get(id);
    },
    set: (id, stored, ttlMs) => {
      calls.set.push({ id, choice: stored, ttlMs });
      held.set(id, stored);
    },
  };
  return { store, held, calls };
}

describe('StickyRoutes', () => {
  it('answers a remembered choice at once, until its ttl ends', () => {
    const { routes, clock } = stickyRoutes();
    expect(routes.lookup(ID)).toBeUndefined();
    routes.remember(ID, choice, TTL);
    expect(routes.lookup(ID)).toEqual(choice);
    clock.ms += TTL - 1;
    expect(routes.lookup(ID)).toEqual(choice);
    clock.ms += 1;
    expect(routes.lookup(ID)).toBeUndefined();
    expect(routes.size).toBe(0);
  });

  it('keeps its own copy of the choice', () => {
    const { routes } = stickyRoutes();
    const mutable = { ...choice };
    routes.remember(ID, mutable, TTL);
    mutable.channelId = 99;
    expect(routes.lookup(ID)).toEqual(choice);
  });

  it('renews the ttl on each request', () => {
    const { routes, clock } = stickyRoutes();
    routes.remember(ID, choice, TTL);
    clock.ms += TTL / 2;
    routes.remember(ID, choice, TTL);
    clock.ms += TTL - 1;
    expect(routes.lookup(ID)).toEqual(choice);
  });

  it('publishes a new choice, and a renewal only once less than 3/4 of the ttl is left of the shared one', () => {
    const { routes, clock, published } = stickyRoutes();
    const start = clock.ms;
    routes.remember(ID, choice, TTL);
    expect(published).toEqual([{ kind: 'sticky', id: ID, ...choice, untilMs: start + TTL, at: start }]);
    for (let step = 0; step < 5; step++) {
      clock.ms += TTL / 20;
      routes.remember(ID, choice, TTL);
    }
    expect(published).toHaveLength(1);
    clock.ms += 1;
    routes.remember(ID, choice, TTL);
    expect(published).toHaveLength(2);
    expect(published[1]).toMatchObject({ untilMs: clock.ms + TTL, at: clock.ms });
    clock.ms += 1;
    routes.remember(ID, choice, TTL);
    expect(published).toHaveLength(2);
  });

  it('publishes a changed choice at once', () => {
    const { routes, clock, published } = stickyRoutes();
    routes.remember(ID, choice, TTL);
    clock.ms += 1;
    routes.remember(ID, { channelId: 4, model: 'gpt-4o' }, TTL);
    routes.remember(ID, { channelId: 4, model: 'gpt-4o-mini' }, TTL);
    expect(published.map((update) => [update.channelId, update.model])).toEqual([
      [3, 'gpt-4o'],
      [4, 'gpt-4o'],
      [4, 'gpt-4o-mini'],
    ]);
    expect(routes.lookup(ID)).toEqual({ channelId: 4, model: 'gpt-4o-mini' });
  });

  it('publishes again a choice whose entry expired', () => {
    const { routes, clock, published } = stickyRoutes();
    routes.remember(ID, choice, 1000);
    clock.ms += 1000;
    routes.remember(ID, choice, 1000);
    expect(published).toHaveLength(2);
  });

  it('ignores a ttl that is not positive', () => {
    const { routes, published } = stickyRoutes();
    routes.remember(ID, choice, 0);
    routes.remember(ID, choice, Number.NaN);
    expect(routes.lookup(ID)).toBeUndefined();
    expect(published).toEqual([]);
  });

  it('applies a shared choice when newer than its own, and ignores an expired one', () => {
    const { routes, clock } = stickyRoutes();
    const update = (at: number, channelId: number, untilMs = clock.ms + TTL): StickyUpdate => ({
      kind: 'sticky',
      id: ID,
      channelId,
      model: 'gpt-4o',
      untilMs,
      at,
    });
    routes.apply(update(clock.ms, 5, clock.ms));
    expect(routes.lookup(ID)).toBeUndefined();
    routes.apply(update(clock.ms - 10, 5));
    expect(routes.lookup(ID)).toMatchObject({ channelId: 5 });
    routes.remember(ID, choice, TTL);
    routes.apply(update(clock.ms - 1, 6));
    expect(routes.lookup(ID)).toEqual(choice);
    routes.apply(update(clock.ms + 1, 6));
    expect(routes.lookup(ID)).toMatchObject({ channelId: 6 });
  });

  it('takes a shared choice over its own expired one, however old', () => {
    const { routes, clock } = stickyRoutes();
    routes.remember(ID, choice, 1000);
    clock.ms += 1000;
    routes.apply({ kind: 'sticky', id: ID, channelId: 5, model: 'm', untilMs: clock.ms + TTL, at: 1 });
    expect(routes.lookup(ID)).toEqual({ channelId: 5, model: 'm' });
  });

  it('settles a tie the same way whatever the order of arrival', () => {
    const at = 1_700_000_000_000;
    const tied = (channelId: number): StickyUpdate => ({
      kind: 'sticky',
      id: ID,
      channelId,
      model: 'm',
      untilMs: at + TTL,
      at,
    });
    const first = stickyRoutes().routes;
    const second = stickyRoutes().routes;
    first.apply(tied(2));
    first.apply(tied(9));
    second.apply(tied(9));
    second.apply(tied(2));
    expect(first.lookup(ID)).toEqual(second.lookup(ID));
  });

  it('counts a renewal shared by another worker against the throttle', () => {
    const { routes, clock, published } = stickyRoutes();
    routes.remember(ID, choice, TTL);
    clock.ms += TTL / 2;
    routes.apply({ kind: 'sticky', id: ID, ...choice, untilMs: clock.ms + TTL, at: clock.ms });
    clock.ms += 1;
    routes.remember(ID, choice, TTL);
    expect(published).toHaveLength(1);
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const { routes } = stickyRoutes({ maxEntries: 3 });
    const ids = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(32));
    routes.remember(ids[0]!, choice, TTL);
    routes.remember(ids[1]!, choice, TTL);
    routes.remember(ids[2]!, choice, TTL);
    routes.remember(ids[0]!, choice, TTL);
    routes.apply({ kind: 'sticky', id: ids[3]!, ...choice, untilMs: 2_000_000_000_000, at: 1 });
    expect(routes.size).toBe(3);
    expect(ids.map((id) => routes.lookup(id) !== undefined)).toEqual([true, false, true, true]);
  });

  it('asks the store only on a local miss', async () => {
    const { store, held, calls } = memoryStore();
    const { routes } = stickyRoutes({ store });
    held.set(OTHER_ID, { channelId: 8, model: 'claude' });
    const fromStore = routes.lookup(OTHER_ID);
    expect(fromStore).toBeInstanceOf(Promise);
    expect(await fromStore).toEqual({ channelId: 8, model: 'claude' });
    expect(await routes.lookup(ID)).toBeUndefined();
    expect(calls.get).toBe(2);
    routes.remember(ID, choice, TTL);
    expect(routes.lookup(ID)).toEqual(choice);
    expect(calls.get).toBe(2);
  });

  it('writes the store whenever it publishes', () => {
    const { store, calls } = memoryStore();
    const { routes, clock, published } = stickyRoutes({ store });
    routes.remember(ID, choice, TTL);
    clock.ms += 1;
    routes.remember(ID, choice, TTL);
    clock.ms += TTL / 2;
    routes.remember(ID, choice, TTL);
    routes.apply({ kind: 'sticky', id: OTHER_ID, ...choice, untilMs: clock.ms + TTL, at: clock.ms });
    expect(calls.set).toEqual([
      { id: ID, choice, ttlMs: TTL },
      { id: ID, choice, ttlMs: TTL },
    ]);
    expect(published).toHaveLength(2);
  });

  it('tolerates a store or publisher that fails', async () => {
    const failure = new Error('store down');
    const failing: StickyStore = {
      get: async () => {
        throw failure;
      },
      set: () => {
        throw failure;
      },
    };
    const errors: unknown[] = [];
    const routes = new StickyRoutes({
      store: failing,
      publish: () => {
        throw failure;
      },
      onError: (error) => void errors.push(error),
    });
    expect(() => routes.remember(ID, choice, TTL)).not.toThrow();
    expect(routes.lookup(ID)).toEqual(choice);
    expect(await routes.lookup(OTHER_ID)).toBeUndefined();
    expect(errors).toEqual([failure, failure, failure]);
    const silent = new StickyRoutes({ store: { get: () => Promise.reject(failure), set: () => {} } });
    expect(await silent.lookup(ID)).toBeUndefined();
  });
});

describe('readStickyUpdate', () => {
  const update = { kind: 'sticky', id: ID, channelId: 3, model: 'gpt-4o', untilMs: 2000, at: 1000 };

  it('reads a well-formed update, leaving other members out', () => {
    expect(readStickyUpdate({ ...update, origin: 'elsewhere' })).toEqual(update);
  });

  it('refuses anything malformed', () => {
    const malformed: Record<string, unknown>[] = [
      { ...update, kind: 'pair' },
      { ...update, id: ID.toUpperCase() },
      { ...update, id: ID.slice(1) },
      { ...update, id: 'conversation-1' },
      { ...update, channelId: 0 },
      { ...update, channelId: 1.5 },
      { ...update, channelId: '3' },
      { ...update, channelId: 2 ** 53 },
      { ...update, model: '' },
      { ...update, model: 'm'.repeat(257) },
      { ...update, model: 4 },
      { ...update, untilMs: Number.POSITIVE_INFINITY },
      { ...update, untilMs: -1 },
      { ...update, at: Number.NaN },
      { ...update, at: '1000' },
    ];
    for (const value of malformed) expect(readStickyUpdate(value)).toBeUndefined();
    expect(readStickyUpdate({ ...update, model: 'm'.repeat(256) })).toBeDefined();
  });
});
