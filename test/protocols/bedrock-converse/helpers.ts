import { readFileSync } from 'node:fs';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { bedrockConverseCodec } from '../../../src/protocols/bedrock-converse/codec.js';
import { decodeInPieces } from '../../helpers/sse-in-pieces.js';
export { expectStreamGrammar } from '../../helpers/expect-stream-grammar.js';

const FIXTURES = new URL('../../../src/protocols/bedrock-converse/__fixtures__/', import.meta.url);

export const codec = bedrockConverseCodec;

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** A stream's SSE-style text, cut into pieces at `cuts` (byte offsets), decoded. */
export function decodeStreamText(
  text: string,
  options: { cuts?: number[]; losses?: LossLog } = {},
): StreamEvent[] {
  const decoder = codec.createStreamDecoder(options.losses ?? new LossLog());
  return decodeInPieces(decoder, new TextEncoder().encode(text), options.cuts);
}

/** A stream's id is drawn at random and `created` is the time of reading: both fixed for comparisons. */
export function stable(events: StreamEvent[]): StreamEvent[] {
  return events.map((event) =>
    event.type === 'response-start' ? { ...event, id: 'converse-stream', created: 0 } : event,
  );
}

/** Canonical events -> Converse stream text, as the encoder writes it. */
export function encodeEvents(
  events: StreamEvent[],
  losses = new LossLog(),
  estimatedInputTokens = 0,
): string {
  const encoder = codec.createStreamEncoder({
    losses,
    estimatedInputTokens,
    model: 'us.amazon.nova-pro-v1:0',
  });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}
