import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { StreamDecoder } from '../../../src/protocols/protocol-codec.js';
import { decodeInPieces } from '../../helpers/sse-in-pieces.js';

export { sseEventsInPieces as readSseEvents } from '../../helpers/sse-in-pieces.js';

const FIXTURES = new URL('../../../src/protocols/openai-responses/__fixtures__/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(fileURLToPath(new URL(name, FIXTURES)), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** Feeds bytes cut at `cuts` through the reader into a decoder, as the relay does, event by event. */
export function decodeBytes(options: {
  bytes: Uint8Array;
  cuts?: number[];
  createDecoder: (losses: LossLog) => StreamDecoder;
  losses: LossLog;
}): StreamEvent[] {
  return decodeInPieces(options.createDecoder(options.losses), options.bytes, options.cuts);
}
