import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { StreamDecoder } from '../../../src/protocols/protocol-codec.js';
import { SseEventReader, type SseEvent } from '../../../src/protocols/sse/sse-event-reader.js';

const FIXTURES = new URL('../../../src/protocols/anthropic-messages/__fixtures__/', import.meta.url);

export function readFixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export function readJsonFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFixture(name)) as Record<string, unknown>;
}

/** A canonical request with nothing set but what the test gives. */
export function canonicalRequest(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'claude-test',
    system: [],
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
    tools: [],
    stream: false,
    extensions: {},
    ...overrides,
  };
}

/** The bytes of `text`, cut at the given byte offsets, re-framed into SSE events and decoded. */
export function decodeChunks(decoder: StreamDecoder, bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const reader = new SseEventReader((event) => events.push(...decoder.push(event)));
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(start, cut));
    start = cut;
  }
  reader.end();
  events.push(...decoder.end());
  return events;
}

/** SSE text -> events, for reading what an encoder wrote. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const reader = new SseEventReader((event) => events.push(event));
  reader.push(new TextEncoder().encode(text));
  reader.end();
  return events;
}

/** The wire events as `{ event, data }` with parsed data. */
export function parseSseJson(text: string): { event: string | undefined; data: Record<string, unknown> }[] {
  return parseSse(text).map((event) => ({
    event: event.event,
    data: JSON.parse(event.data) as Record<string, unknown>,
  }));
}

/**
 * The grammar of src/ir/stream-event.ts: `response-start` first; each block is start, deltas, end
 * with one index (never reused); one `finish` last, optionally followed by `usage`; an `error` may
 * end the stream anywhere.
 */
export function expectStreamGrammar(events: StreamEvent[]): void {
  const open = new Map<number, string>();
  const used = new Set<number>();
  let state: 'before-start' | 'streaming' | 'finished' | 'errored' = 'before-start';
  events.forEach((event, position) => {
    const where = `event ${position} (${event.type})`;
    expect(state, `${where} after an error`).not.toBe('errored');
    if (event.type === 'error') {
      state = 'errored';
      return;
    }
    if (state === 'finished') {
      expect(event.type, `${where} after finish`).toBe('usage');
      return;
    }
    if (state === 'before-start') {
      expect(event.type, `${where} must be response-start`).toBe('response-start');
      state = 'streaming';
      return;
    }
    switch (event.type) {
      case 'response-start':
        throw new Error(`${where}: a second response-start`);
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start':
        expect(used.has(event.index), `${where}: index ${event.index} reused`).toBe(false);
        used.add(event.index);
        open.set(event.index, event.type.replace('-start', ''));
        return;
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
        expect(open.get(event.index), `${where}: block ${event.index} not open`).toBe(
          event.type.replace('-delta', ''),
        );
        return;
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end':
        expect(open.get(event.index), `${where}: block ${event.index} not open`).toBe(
          event.type.replace('-end', ''),
        );
        open.delete(event.index);
        return;
      case 'usage':
        return;
      case 'finish':
        expect([...open.keys()], `${where}: blocks still open`).toEqual([]);
        state = 'finished';
        return;
      default: {
        const unreachable: never = event;
        throw new Error(`unknown event ${JSON.stringify(unreachable)}`);
      }
    }
  });
  expect(['finished', 'errored'], 'the stream must finish or fail').toContain(state);
}
