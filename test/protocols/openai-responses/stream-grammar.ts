import type { StreamEvent } from '../../../src/ir/stream-event.js';

type BlockKind = 'text' | 'reasoning' | 'tool-call';

/**
 * Throws unless `events` follow the grammar of src/ir/stream-event.ts: `response-start` first;
 * each block start, deltas, end with one index never reused; one `finish` last (a trailing `usage`
 * allowed), every block closed before it; or an `error` that ends the stream anywhere.
 */
export function assertStreamGrammar(events: StreamEvent[]): void {
  const fail = (at: number, why: string): never => {
    throw new Error(`event ${at} (${JSON.stringify(events[at])}): ${why}`);
  };
  const open = new Map<number, BlockKind>();
  const used = new Set<number>();
  let ended: 'finish' | 'error' | undefined;
  let trailingUsage = false;
  events.forEach((event, at) => {
    if (at === 0 && event.type !== 'response-start') fail(at, 'the first event must be response-start');
    if (ended === 'error') fail(at, 'nothing may follow an error');
    if (ended === 'finish') {
      if (event.type !== 'usage' || trailingUsage) fail(at, 'only one usage may follow the finish');
      trailingUsage = true;
      return;
    }
    const type = event.type;
    switch (type) {
      case 'response-start':
        if (at !== 0) fail(at, 'response-start must come once, first');
        return;
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start':
        if (used.has(event.index)) fail(at, `block index ${event.index} is reused`);
        used.add(event.index);
        open.set(event.index, type.slice(0, -'-start'.length) as BlockKind);
        return;
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
        if (open.get(event.index) !== type.slice(0, -'-delta'.length))
          fail(at, `no open block ${event.index} of this kind`);
        return;
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end':
        if (open.get(event.index) !== type.slice(0, -'-end'.length))
          fail(at, `no open block ${event.index} of this kind`);
        open.delete(event.index);
        return;
      case 'usage':
        return;
      case 'finish':
        if (open.size > 0) fail(at, `blocks ${[...open.keys()].join(', ')} are still open`);
        ended = 'finish';
        return;
      case 'error':
        ended = 'error';
        return;
      default: {
        const never: never = type;
        return never;
      }
    }
  });
  if (!ended) throw new Error('the stream has neither a finish nor an error');
}
