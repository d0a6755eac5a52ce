import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { SseEventReader, type SseEvent } from '../../../src/protocols/sse/sse-event-reader.js';

const FIXTURES = new URL('../../../src/protocols/gemini/__fixtures__/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** SSE events of `bytes`, fed to the reader in the pieces given by `cuts` (byte offsets). */
export function sseEvents(bytes: Uint8Array, cuts: number[] = []): SseEvent[] {
  const events: SseEvent[] = [];
  const reader = new SseEventReader((event) => events.push(event));
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  reader.end();
  return events;
}

/**
 * The grammar of src/ir/stream-event.ts: `response-start` first; every block start, deltas of its
 * own kind, end, with an index used once; one `finish`, after every block ended, followed by
 * nothing but `usage`; an `error` ends the stream anywhere.
 */
export function expectStreamGrammar(events: StreamEvent[]): void {
  const open = new Map<number, 'text' | 'reasoning' | 'tool-call'>();
  const used = new Set<number>();
  let finished = false;
  for (const [position, event] of events.entries()) {
    const where = `event ${position} (${event.type})`;
    if (position === 0 && event.type !== 'error') expect(event.type, where).toBe('response-start');
    if (position > 0) expect(event.type, where).not.toBe('response-start');
    if (finished) expect(['usage', 'error'], where).toContain(event.type);
    switch (event.type) {
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start':
        expect(used.has(event.index), `${where}: index reused`).toBe(false);
        used.add(event.index);
        open.set(event.index, kindOf(event.type));
        break;
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end':
        expect(open.get(event.index), where).toBe(kindOf(event.type));
        if (event.type.endsWith('-end')) open.delete(event.index);
        break;
      case 'finish':
        expect(open.size, `${where}: blocks still open`).toBe(0);
        finished = true;
        break;
      case 'error':
        expect(position, `${where}: error must be last`).toBe(events.length - 1);
        return;
      case 'response-start':
      case 'usage':
        break;
    }
  }
  expect(finished, 'a finish').toBe(true);
}

function kindOf(type: string): 'text' | 'reasoning' | 'tool-call' {
  if (type.startsWith('text')) return 'text';
  if (type.startsWith('reasoning')) return 'reasoning';
  return 'tool-call';
}

export interface LocalServer {
  origin: string;
  /** Bodies received, parsed as JSON, with the path each came to. */
  requests: { url: string; body: unknown }[];
  close(): Promise<void>;
}

/** A local HTTP server (127.0.0.1, random port) that answers every request with `reply`. */
export async function serve(reply: { contentType: string; body: string | string[] }): Promise<LocalServer> {
  const { createServer } = await import('node:http');
  const requests: LocalServer['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ url: request.url ?? '', body: text ? (JSON.parse(text) as unknown) : undefined });
      response.writeHead(200, { 'content-type': reply.contentType });
      // Pieces are written one by one, as a streaming upstream would.
      for (const piece of Array.isArray(reply.body) ? reply.body : [reply.body]) response.write(piece);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
