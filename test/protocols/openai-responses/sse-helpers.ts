import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { StreamDecoder } from '../../../src/protocols/protocol-codec.js';
import { SseEventReader, type SseEvent } from '../../../src/protocols/sse/sse-event-reader.js';

const FIXTURES = new URL('../../../src/protocols/openai-responses/__fixtures__/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(fileURLToPath(new URL(name, FIXTURES)), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** Bytes re-framed into SSE events by the gateway's own reader, the chunks cut where given. */
export function readSseEvents(bytes: Uint8Array, cuts: number[] = []): SseEvent[] {
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

/** Feeds bytes cut at `cuts` through the reader into a decoder, as the relay does, event by event. */
export function decodeBytes(options: {
  bytes: Uint8Array;
  cuts?: number[];
  createDecoder: (losses: LossLog) => StreamDecoder;
  losses: LossLog;
}): StreamEvent[] {
  const decoder = options.createDecoder(options.losses);
  const events: StreamEvent[] = [];
  const reader = new SseEventReader((event) => events.push(...decoder.push(event)));
  let from = 0;
  for (const cut of [...(options.cuts ?? []), options.bytes.length]) {
    reader.push(options.bytes.subarray(from, cut));
    from = cut;
  }
  reader.end();
  events.push(...decoder.end());
  return events;
}
