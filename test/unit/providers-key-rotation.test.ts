import { describe, expect, it } from 'vitest';
import { KeyRotation } from '../../src/providers/key-rotation.js';
import { mapUpstreamModel } from '../../src/providers/map-upstream-model.js';

describe('key rotation', () => {
  it('round robin per channel', () => {
    const rotation = new KeyRotation();
    const a = { id: 1, keys: ['a1', 'a2', 'a3'] };
    const b = { id: 2, keys: ['b1', 'b2'] };
    expect([
      rotation.next(a),
      rotation.next(b),
      rotation.next(a),
      rotation.next(a),
      rotation.next(a),
    ]).toEqual(['a1', 'b1', 'a2', 'a3', 'a1']);
    expect(rotation.next(b)).toBe('b2');
  });

  it('survives a shrinking key list and an empty one', () => {
    const rotation = new KeyRotation();
    rotation.next({ id: 1, keys: ['a', 'b', 'c'] });
    rotation.next({ id: 1, keys: ['a', 'b', 'c'] });
    expect(rotation.next({ id: 1, keys: ['x'] })).toBe('x');
    expect(rotation.next({ id: 1, keys: [] })).toBeUndefined();
  });

  it('forget restarts a channel at its first key', () => {
    const rotation = new KeyRotation();
    const channel = { id: 5, keys: ['k1', 'k2'] };
    rotation.next(channel);
    rotation.forget(5);
    expect(rotation.next(channel)).toBe('k1');
  });
});

describe('model mapping', () => {
  it('maps public IDs and leaves others alone', () => {
    const channel = { modelMapping: { 'gpt-public': 'gpt-upstream' } };
    expect(mapUpstreamModel(channel, 'gpt-public')).toBe('gpt-upstream');
    expect(mapUpstreamModel(channel, 'other')).toBe('other');
    expect(mapUpstreamModel(channel, 'constructor')).toBe('constructor');
  });
});
