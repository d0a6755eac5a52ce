import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { StreamDecoder } from '../../../src/protocols/protocol-codec.js';
import { SseEventReader } from '../../../src/protocols/sse/sse-event-reader.js';

const fixtures = new URL('../../../src/protocols/openai-chat/__fixtures__/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** Feeds bytes cut at `cuts` through the SSE reader into a decoder, as an upstream body would arrive. */
export function decodeInPieces(
  decoder: StreamDecoder,
  bytes: Uint8Array,
  cuts: readonly number[],
): StreamEvent[] {
  const events: StreamEvent[] = [];
  const reader = new SseEventReader((event) => events.push(...decoder.push(event)));
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  reader.end();
  events.push(...decoder.end());
  return events;
}

/**
 * The grammar of src/ir/stream-event.ts: `response-start` first; each block start -> deltas -> end
 * under one index of one kind; every block closed before one `finish`, which is last but for
 * trailing `usage` events; an `error` ends the stream anywhere.
 */
export function expectStreamGrammar(events: readonly StreamEvent[]): void {
  const open = new Map<number, 'text' | 'reasoning' | 'tool-call'>();
  const used = new Set<number>();
  let finished = false;
  events.forEach((event, position) => {
    const where = `event ${position} (${event.type})`;
    if (position === 0 && event.type !== 'error') expect(event.type, where).toBe('response-start');
    if (position > 0) expect(event.type, where).not.toBe('response-start');
    if (finished) expect(event.type, `${where} after finish`).toBe('usage');
    switch (event.type) {
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start': {
        expect(used.has(event.index), `${where}: index ${event.index} used again`).toBe(false);
        used.add(event.index);
        open.set(event.index, event.type.replace('-start', '') as 'text' | 'reasoning' | 'tool-call');
        return;
      }
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

/** Serves one fixed body on 127.0.0.1 for an SDK to consume. */
export async function serveOnce(
  body: string,
  contentType: string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': contentType });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
