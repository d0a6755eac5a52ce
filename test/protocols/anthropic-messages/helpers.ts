import { readFileSync } from 'node:fs';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { StreamDecoder } from '../../../src/protocols/protocol-codec.js';
import type { SseEvent } from '../../../src/protocols/sse/sse-event-reader.js';
import { decodeInPieces, sseEventsInPieces } from '../../helpers/sse-in-pieces.js';
export { expectStreamGrammar } from '../../helpers/expect-stream-grammar.js';

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

/** The bytes cut at the given byte offsets, re-framed into SSE events and decoded. */
export function decodeChunks(decoder: StreamDecoder, bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  return decodeInPieces(decoder, bytes, cuts);
}

/** SSE text -> events, for reading what an encoder wrote. */
export function parseSse(text: string): SseEvent[] {
  return sseEventsInPieces(new TextEncoder().encode(text));
}

/** The wire events as `{ event, data }` with parsed data. */
export function parseSseJson(text: string): { event: string | undefined; data: Record<string, unknown> }[] {
  return parseSse(text).map((event) => ({
    event: event.event,
    data: JSON.parse(event.data) as Record<string, unknown>,
  }));
}
