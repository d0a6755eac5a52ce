import { expect } from 'vitest';
import type { StreamEvent } from '../../src/ir/stream-event.js';

type BlockKind = 'text' | 'reasoning' | 'tool-call';

/**
 * The grammar of src/ir/stream-event.ts, asserted by every codec's tests: `response-start` first;
 * each block start, deltas of its kind, end, with an index never reused (a `file` is a whole block
 * with an index of its own); one `finish` after every block ended, followed by at most one
 * `usage`; an `error` ends the stream anywhere. The stream ends with a finish (and its usage) or
 * an error.
 */
export function expectStreamGrammar(events: readonly StreamEvent[]): void {
  const open = new Map<number, BlockKind>();
  const used = new Set<number>();
  let finished = false;
  let trailingUsage = false;
  events.forEach((event, position) => {
    const where = `event ${position} (${event.type})`;
    if (position === 0 && event.type !== 'error') expect(event.type, where).toBe('response-start');
    if (position > 0) expect(event.type, where).not.toBe('response-start');
    if (finished && event.type !== 'error') {
      expect(event.type, `${where} after finish`).toBe('usage');
      expect(trailingUsage, `${where}: a second usage after finish`).toBe(false);
      trailingUsage = true;
      return;
    }
    switch (event.type) {
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start':
        expect(used.has(event.index), `${where}: index ${event.index} used again`).toBe(false);
        used.add(event.index);
        open.set(event.index, event.type.replace('-start', '') as BlockKind);
        return;
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end': {
        const kind = event.type.replace(/-(delta|end)$/, '');
        expect(open.get(event.index), `${where}: block ${event.index} not open`).toBe(kind);
        if (event.type.endsWith('-end')) open.delete(event.index);
        return;
      }
      case 'finish':
        expect([...open.keys()], `${where}: blocks left open`).toEqual([]);
        finished = true;
        return;
      case 'error':
        expect(position, `${where}: events after an error`).toBe(events.length - 1);
        return;
      case 'file':
        // A whole block: its index is used once, like a start's, and nothing follows under it.
        expect(used.has(event.index), `${where}: index ${event.index} used again`).toBe(false);
        used.add(event.index);
        return;
      case 'response-start':
      case 'usage':
        return;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  });
  const last = events.at(-1);
  expect(finished || last?.type === 'error', 'the stream ends with finish or error').toBe(true);
}
