import type { StreamEvent } from '../../src/ir/stream-event.js';
import type { StreamDecoder } from '../../src/protocols/protocol-codec.js';
import { SseEventReader, type SseEvent } from '../../src/protocols/sse/sse-event-reader.js';

/** SSE events of `bytes`, fed to the gateway's reader in the pieces given by `cuts` (byte offsets). */
export function sseEventsInPieces(bytes: Uint8Array, cuts: readonly number[] = []): SseEvent[] {
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

/** Bytes cut at `cuts`, re-framed into events and decoded one by one, as an upstream body arrives. */
export function decodeInPieces(
  decoder: StreamDecoder,
  bytes: Uint8Array,
  cuts: readonly number[] = [],
): StreamEvent[] {
  const events = sseEventsInPieces(bytes, cuts).flatMap((event) => decoder.push(event));
  return [...events, ...decoder.end()];
}
