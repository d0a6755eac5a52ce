import { expect, test } from 'vitest';
import { Cancellation } from '../../src/relay/cancellation.js';

test('the AbortSignal follows the cancellation, whether it is made before or after the abort', () => {
  const early = new Cancellation();
  const signal = early.signal;
  expect(signal.aborted).toBe(false);
  const reason = new Error('shutdown');
  early.abort(reason);
  expect([signal.aborted, signal.reason]).toEqual([true, reason]);

  const late = new Cancellation();
  late.abort(reason);
  expect([late.signal.aborted, late.signal.reason]).toEqual([true, reason]);
});

test('abort is told once, and the first reason stays', () => {
  const cancellation = new Cancellation();
  let told = 0;
  cancellation.on('abort', () => (told += 1));
  const first = new Error('first');
  cancellation.abort(first);
  cancellation.abort(new Error('second'));
  expect([told, cancellation.aborted, cancellation.reason]).toEqual([1, true, first]);
});
