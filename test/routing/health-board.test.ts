import { describe, expect, it } from 'vitest';
import { HealthBoard } from '../../src/routing/health-board.js';
import { readHealthUpdate, type HealthUpdate } from '../../src/routing/health-update.js';
import { FakeClock, healthWithoutStore, linkedSyncs } from './health-fixture.js';

describe('HealthBoard', () => {
  it('applies another instance update only when newer than what it holds (last writer wins)', () => {
    const board = new HealthBoard();
    const update = (at: number, failures: number): HealthUpdate => ({
      kind: 'pair',
      channelId: 1,
      model: 'm',
      failures,
      untilMs: at + 5000,
      at,
    });
    expect(board.apply(update(200, 2))).toBe(true);
    expect(board.apply(update(100, 7))).toBe(false);
    expect(board.apply(update(200, 9))).toBe(false);
    expect(board.pair(1, 'm')).toEqual({ failures: 2, untilMs: 5200, at: 200 });
    expect(board.apply(update(300, 0))).toBe(true);
    expect(board.pair(1, 'm')?.failures).toBe(0);
  });

  it('marks key refusals from elsewhere as learned', () => {
    const board = new HealthBoard();
    board.apply({ kind: 'key', channelId: 1, key: 'abcdef012345', refused: true, at: 10 });
    expect(board.key(1, 'abcdef012345')).toEqual({ refused: true, at: 10, learned: true });
    expect(board.hasRefusedKeys(1)).toBe(true);
    expect(board.hasRefusedKeys(2)).toBe(false);
  });
});

describe('readHealthUpdate', () => {
  it('accepts well-formed updates and nothing else', () => {
    const pair = { kind: 'pair', channelId: 1, model: 'm', failures: 1, untilMs: 5, at: 1 };
    const key = { kind: 'key', channelId: 1, key: 'abcdef012345', refused: true, at: 1 };
    expect(readHealthUpdate({ ...pair, origin: 'x' })).toEqual(pair);
    expect(readHealthUpdate(key)).toEqual(key);
    expect(readHealthUpdate({ ...pair, channelId: 0 })).toBeUndefined();
    expect(readHealthUpdate({ ...pair, failures: -1 })).toBeUndefined();
    expect(readHealthUpdate({ ...pair, model: 3 })).toBeUndefined();
    expect(readHealthUpdate({ ...key, key: 'sk-secret-key' })).toBeUndefined();
    expect(readHealthUpdate({ ...key, kind: 'other' })).toBeUndefined();
    expect(readHealthUpdate('text')).toBeUndefined();
  });
});

describe('sharing rules', () => {
  const channel = { id: 1, keys: ['key-one', 'key-two'], models: ['m'] };

  it('a refusal learned from an instance that stops renewing it lapses after three probe intervals', () => {
    const clock = new FakeClock();
    const [left, right] = linkedSyncs();
    const first = healthWithoutStore({ clock, sync: left });
    const second = healthWithoutStore({ clock, sync: right });
    first.setSettings({ channel_probe_interval_s: 30 });
    second.setSettings({ channel_probe_interval_s: 30 });
    first.health.route([channel], 'm').next()!.refused();
    first.health.close();
    expect(second.health.report(channel).keys[0]?.state).toBe('refused');
    clock.advance(89);
    expect(second.health.nextKey(channel)).toBe('key-two');
    clock.advance(1);
    expect(second.health.report(channel).keys[0]?.state).toBe('active');
    second.health.close();
  });

  it('the newer state wins whichever instance decided it', () => {
    const clock = new FakeClock();
    const [left, right] = linkedSyncs();
    const first = healthWithoutStore({ clock, sync: left });
    const second = healthWithoutStore({ clock, sync: right });
    first.health.route([channel], 'm').next()!.failed();
    clock.advance(5);
    second.health.route([channel], 'm').next()!.succeeded();
    expect(first.health.report(channel).models[0]?.state).toBe('healthy');
    expect(second.health.report(channel).models[0]?.state).toBe('healthy');
    first.health.close();
    second.health.close();
  });
});
