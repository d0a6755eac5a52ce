import { describe, expect, test } from 'vitest';
import {
  ESTIMATE_LIFETIME_MS,
  EXPLORATION_SHARE,
  LatencyBoard,
  MAX_PAIRS,
  MEASUREMENT_TRIAL_MS,
  PUBLISH_INTERVAL_MS,
  SMOOTHING_FACTOR,
} from '../../src/routing/policy/latency/latency-board.js';
import { readLatencyUpdate, type LatencyUpdate } from '../../src/routing/policy/latency/latency-update.js';
import { orderCandidates } from '../../src/routing/order-candidates.js';
import { seededRandom } from '../helpers/seeded-random.js';

const MODEL = 'gpt-test';
/** Never below `EXPLORATION_SHARE`: orders without exploration. */
const NEVER_EXPLORE = () => 0.99;

interface Candidate {
  id: number;
  priority: number;
  weight: number;
}

const candidate = (id: number, priority = 10, weight = 1): Candidate => ({ id, priority, weight });
const ids = (ordered: readonly { id: number }[]) => ordered.map((entry) => entry.id);

function clock(start = 1_700_000_000_000) {
  let nowMs = start;
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

function boardWith(latencies: Record<number, number>, random: () => number = NEVER_EXPLORE) {
  const time = clock();
  const board = new LatencyBoard({ now: time.now, random });
  for (const [id, ms] of Object.entries(latencies)) board.record(Number(id), MODEL, ms);
  return { board, time };
}

describe('moving average', () => {
  test('the first sample is the estimate; later ones move it by the smoothing factor', () => {
    const { board } = boardWith({});
    expect(board.estimate(1, MODEL)).toBeUndefined();
    board.record(1, MODEL, 100);
    expect(board.estimate(1, MODEL)).toBe(100);
    board.record(1, MODEL, 200);
    expect(board.estimate(1, MODEL)).toBeCloseTo(100 + SMOOTHING_FACTOR * 100);
    board.record(1, MODEL, 200);
    expect(board.estimate(1, MODEL)).toBeCloseTo(130 + SMOOTHING_FACTOR * 70);
    expect(board.estimate(1, 'other-model')).toBeUndefined();
    expect(board.estimate(2, MODEL)).toBeUndefined();
  });

  test('an estimate without samples for its lifetime is forgotten, and the next sample starts afresh', () => {
    const { board, time } = boardWith({ 1: 100 });
    time.advance(ESTIMATE_LIFETIME_MS);
    expect(board.estimate(1, MODEL)).toBe(100);
    time.advance(1);
    expect(board.estimate(1, MODEL)).toBeUndefined();
    board.record(1, MODEL, 900);
    expect(board.estimate(1, MODEL)).toBe(900);
  });

  test('samples that are not a duration are not taken', () => {
    const { board } = boardWith({ 1: 100 });
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) board.record(1, MODEL, bad);
    expect(board.estimate(1, MODEL)).toBe(100);
  });
});

describe('order', () => {
  test('the top tier goes fastest first; lower tiers keep the order they came in', () => {
    const { board } = boardWith({ 1: 300, 2: 100, 3: 200, 4: 900, 5: 10 });
    const candidates = [
      candidate(1),
      candidate(2),
      candidate(3),
      candidate(4, 5),
      candidate(5, 5),
      candidate(6, 1),
    ];
    expect(ids(board.order(candidates, MODEL))).toEqual([2, 3, 1, 4, 5, 6]);
    expect(ids(candidates)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('equal estimates keep the weighted order they came in', () => {
    const { board } = boardWith({ 1: 100, 2: 100, 3: 50 });
    expect(ids(board.order([candidate(2), candidate(1), candidate(3)], MODEL))).toEqual([3, 2, 1]);
    expect(ids(board.order([candidate(1), candidate(2), candidate(3)], MODEL))).toEqual([3, 1, 2]);
  });

  test('a lone top channel, or none, is returned as it came', () => {
    const { board } = boardWith({ 1: 900, 2: 10, 3: 5 }, () => 0);
    expect(ids(board.order([candidate(1, 10), candidate(3, 5), candidate(2, 5)], MODEL))).toEqual([1, 3, 2]);
    expect(board.order([], MODEL)).toEqual([]);
  });

  test('an unmeasured channel leads one request, then waits for its measurement behind the others', () => {
    const { board, time } = boardWith({ 1: 300, 2: 100 });
    const candidates = [candidate(1), candidate(2), candidate(3)];
    expect(ids(board.order(candidates, MODEL))).toEqual([3, 2, 1]);
    expect(ids(board.order(candidates, MODEL))).toEqual([2, 1, 3]);
    time.advance(MEASUREMENT_TRIAL_MS - 1);
    board.record(1, MODEL, 300);
    board.record(2, MODEL, 100);
    expect(ids(board.order(candidates, MODEL))).toEqual([2, 1, 3]);
    time.advance(1);
    expect(ids(board.order(candidates, MODEL))).toEqual([3, 2, 1]);
    board.record(3, MODEL, 200);
    expect(ids(board.order(candidates, MODEL))).toEqual([2, 3, 1]);
  });

  test('with no channel measured yet, each leads once in the weighted order to be measured', () => {
    const { board } = boardWith({});
    const candidates = [candidate(2), candidate(1), candidate(3)];
    expect(board.order(candidates, MODEL)[0]!.id).toBe(2);
    expect(board.order(candidates, MODEL)[0]!.id).toBe(1);
    expect(board.order(candidates, MODEL)[0]!.id).toBe(3);
    expect(ids(board.order(candidates, MODEL))).toEqual([2, 1, 3]);
  });

  test('an exploring order puts another top-tier channel first and keeps the rest fastest first', () => {
    const draws = [0.01, 0.99];
    const { board } = boardWith({ 1: 100, 2: 200, 3: 300, 4: 1 }, () => draws.shift() ?? 0.99);
    const candidates = [candidate(3), candidate(1), candidate(2), candidate(4, 1)];
    expect(ids(board.order(candidates, MODEL))).toEqual([3, 1, 2, 4]);
    expect(ids(board.order(candidates, MODEL))).toEqual([1, 2, 3, 4]);
  });

  test('over 10,000 orders the fastest leads about 95% and the others share the rest', () => {
    const { board } = boardWith({ 1: 400, 2: 100, 3: 250 }, seededRandom(7));
    const leads = new Map<number, number>();
    const candidates = [candidate(1), candidate(2), candidate(3)];
    for (let round = 0; round < 10_000; round += 1) {
      const leader = board.order(candidates, MODEL)[0]!.id;
      leads.set(leader, (leads.get(leader) ?? 0) + 1);
    }
    expect((leads.get(2) ?? 0) / 10_000).toBeCloseTo(1 - EXPLORATION_SHARE, 2);
    expect((leads.get(1) ?? 0) / 10_000).toBeCloseTo(EXPLORATION_SHARE / 2, 2);
    expect((leads.get(3) ?? 0) / 10_000).toBeCloseTo(EXPLORATION_SHARE / 2, 2);
  });

  test('a channel never explored is measured again once its estimate lapses, and wins when fast again', () => {
    const { board, time } = boardWith({ 1: 100, 2: 300 });
    const candidates = [candidate(1), candidate(2)];
    // Channel 1 slows down (still under channel 2's old estimate) and channel 2 turns fast, but no
    // request explores.
    for (let elapsed = 1000; elapsed <= ESTIMATE_LIFETIME_MS; elapsed += 1000) {
      time.advance(1000);
      const leader = board.order(candidates, MODEL)[0]!.id;
      expect(leader).toBe(1);
      board.record(leader, MODEL, 250);
    }
    time.advance(1);
    const trial = board.order(candidates, MODEL)[0]!.id;
    expect(trial).toBe(2);
    board.record(trial, MODEL, 100);
    expect(board.order(candidates, MODEL)[0]!.id).toBe(2);
  });
});

describe('orderTargets', () => {
  test('lowest latency first, unknown first, ties in the order given', () => {
    const { board } = boardWith({});
    const latency: Record<string, number | undefined> = {
      a: 300,
      b: 100,
      c: undefined,
      d: Number.NaN,
      e: 100,
    };
    const ordered = board.orderTargets(['a', 'b', 'c', 'd', 'e'], (target) => latency[target]);
    expect(ordered).toEqual(['c', 'd', 'b', 'e', 'a']);
  });

  test('explores with the same share as channels', () => {
    const board = new LatencyBoard({ random: seededRandom(11) });
    const latency: Record<string, number> = { fast: 100, slow: 300 };
    let fastLeads = 0;
    for (let round = 0; round < 10_000; round += 1) {
      if (board.orderTargets(['slow', 'fast'], (target) => latency[target])[0] === 'fast') fastLeads += 1;
    }
    expect(fastLeads / 10_000).toBeCloseTo(1 - EXPLORATION_SHARE, 2);
  });
});

describe('sharing between instances', () => {
  function publishingBoard() {
    const time = clock();
    const published: LatencyUpdate[] = [];
    const board = new LatencyBoard({
      now: time.now,
      random: NEVER_EXPLORE,
      publish: (update) => published.push(update),
    });
    return { board, time, published };
  }

  test('each pair publishes at most once a second, and the value held back goes out with the next record', () => {
    const { board, time, published } = publishingBoard();
    const start = time.now();
    board.record(1, MODEL, 100);
    time.advance(400);
    board.record(1, MODEL, 200);
    board.record(2, MODEL, 50);
    time.advance(PUBLISH_INTERVAL_MS - 401);
    board.record(1, MODEL, 200);
    expect(published).toEqual([
      { kind: 'latency', channelId: 1, model: MODEL, ms: 100, at: start },
      { kind: 'latency', channelId: 2, model: MODEL, ms: 50, at: start + 400 },
    ]);
    time.advance(1);
    board.record(1, MODEL, 200);
    expect(published).toHaveLength(3);
    expect(published[2]).toEqual({
      kind: 'latency',
      channelId: 1,
      model: MODEL,
      ms: board.estimate(1, MODEL),
      at: start + PUBLISH_INTERVAL_MS,
    });
    expect(published[2]!.ms).toBeCloseTo(165.7);
  });

  test('an update about an unmeasured pair is taken whole; one about a measured pair counts as one sample', () => {
    const { board, time, published } = publishingBoard();
    board.apply({ kind: 'latency', channelId: 7, model: MODEL, ms: 250, at: time.now() });
    expect(board.estimate(7, MODEL)).toBe(250);
    board.record(1, MODEL, 100);
    published.length = 0;
    board.apply({ kind: 'latency', channelId: 1, model: MODEL, ms: 200, at: time.now() + 1 });
    expect(board.estimate(1, MODEL)).toBeCloseTo(100 + SMOOTHING_FACTOR * 100);
    expect(published).toEqual([]);
  });

  test('an update no newer than the latest sample known, or past the lifetime, is ignored', () => {
    const { board, time } = publishingBoard();
    board.record(1, MODEL, 100);
    board.apply({ kind: 'latency', channelId: 1, model: MODEL, ms: 900, at: time.now() });
    board.apply({ kind: 'latency', channelId: 1, model: MODEL, ms: 900, at: time.now() - 5000 });
    expect(board.estimate(1, MODEL)).toBe(100);
    board.apply({
      kind: 'latency',
      channelId: 2,
      model: MODEL,
      ms: 900,
      at: time.now() - ESTIMATE_LIFETIME_MS - 1,
    });
    expect(board.estimate(2, MODEL)).toBeUndefined();
  });

  test('readLatencyUpdate takes a well-formed update', () => {
    const update = { kind: 'latency', channelId: 3, model: MODEL, ms: 12.5, at: 1_700_000_000_000 };
    expect(readLatencyUpdate({ ...update, extra: true })).toEqual(update);
  });

  const valid = { kind: 'latency', channelId: 3, model: MODEL, ms: 12.5, at: 1_700_000_000_000 };
  test.each([
    ['not an object', 'latency'],
    ['an array', [valid]],
    ['null', null],
    ['another kind', { ...valid, kind: 'pair' }],
    ['a missing channel', { ...valid, channelId: undefined }],
    ['a channel of zero', { ...valid, channelId: 0 }],
    ['a negative channel', { ...valid, channelId: -3 }],
    ['a fractional channel', { ...valid, channelId: 1.5 }],
    ['an unsafe channel', { ...valid, channelId: 2 ** 60 }],
    ['a channel as text', { ...valid, channelId: '3' }],
    ['a missing model', { ...valid, model: undefined }],
    ['an empty model', { ...valid, model: '' }],
    ['an overlong model', { ...valid, model: 'm'.repeat(257) }],
    ['a model as a number', { ...valid, model: 4 }],
    ['negative milliseconds', { ...valid, ms: -1 }],
    ['infinite milliseconds', { ...valid, ms: Number.POSITIVE_INFINITY }],
    ['milliseconds as text', { ...valid, ms: '12' }],
    ['a missing time', { ...valid, at: undefined }],
    ['a negative time', { ...valid, at: -1 }],
    ['a time that is not a number', { ...valid, at: Number.NaN }],
  ])('readLatencyUpdate rejects %s', (_, value) => {
    expect(readLatencyUpdate(value)).toBeUndefined();
  });
});

test('holds at most MAX_PAIRS pairs, dropping the one updated longest ago', () => {
  const { board } = boardWith({});
  for (let id = 1; id <= MAX_PAIRS; id += 1) board.record(id, MODEL, id);
  board.record(1, MODEL, 1);
  board.record(MAX_PAIRS + 1, 'other-model', 5);
  expect(board.estimate(1, MODEL)).toBe(1);
  expect(board.estimate(2, MODEL)).toBeUndefined();
  expect(board.estimate(3, MODEL)).toBe(3);
  expect(board.estimate(MAX_PAIRS + 1, 'other-model')).toBe(5);
});

describe('simulated traffic', () => {
  const FAST_MS = 100;
  const SLOW_MS = FAST_MS + 200;
  const channels = [candidate(1), candidate(2)];

  /** One board routing requests between two channels, each request measured on the channel it took. */
  function simulation(seed: number) {
    const time = clock();
    const random = seededRandom(seed);
    const jitter = seededRandom(seed + 1_000_000);
    const board = new LatencyBoard({ now: time.now, random });
    const latency = new Map([
      [1, FAST_MS],
      [2, SLOW_MS],
    ]);
    return {
      latency,
      board,
      /** Routes one request and returns the channel that took it. */
      request(): number {
        time.advance(50);
        const chosen = board.order(orderCandidates(channels, random), MODEL)[0]!.id;
        board.record(chosen, MODEL, latency.get(chosen)! + (jitter() - 0.5) * 40);
        return chosen;
      },
    };
  }

  /** Requests after the channels swap speeds until channel 2 leads three requests in a row. */
  function requestsToWinBack(run: ReturnType<typeof simulation>): number {
    run.latency.set(1, SLOW_MS);
    run.latency.set(2, FAST_MS);
    let streak = 0;
    for (let count = 1; count <= 2000; count += 1) {
      streak = run.request() === 2 ? streak + 1 : 0;
      if (streak === 3) return count;
    }
    return Number.POSITIVE_INFINITY;
  }

  test('the faster channel takes at least 85% of traffic, and the other wins it back within 60 requests', () => {
    const run = simulation(2024);
    for (let warmUp = 0; warmUp < 20; warmUp += 1) run.request();
    let fast = 0;
    for (let count = 0; count < 500; count += 1) if (run.request() === 1) fast += 1;
    expect(fast / 500).toBeGreaterThanOrEqual(0.85);

    expect(requestsToWinBack(run)).toBeLessThanOrEqual(60);
    let recovered = 0;
    for (let count = 0; count < 200; count += 1) if (run.request() === 2) recovered += 1;
    expect(recovered / 200).toBeGreaterThanOrEqual(0.85);
  });

  test('across seeds, winning back takes under twenty requests and rarely more than sixty', () => {
    const counts: number[] = [];
    for (let seed = 1; seed <= 200; seed += 1) {
      const run = simulation(seed);
      for (let warmUp = 0; warmUp < 100; warmUp += 1) run.request();
      counts.push(requestsToWinBack(run));
    }
    counts.sort((a, b) => a - b);
    expect(counts[100]!).toBeLessThanOrEqual(20);
    expect(counts.filter((count) => count <= 60).length / counts.length).toBeGreaterThanOrEqual(0.95);
    expect(counts.at(-1)!).toBeLessThan(Number.POSITIVE_INFINITY);
  });
});
