import { asJsonObject, asString } from '../wire-json.js';
import type { AnthropicBlockDelta } from './wire-types.js';

/** The block deltas that carry a piece of text, and the member that holds it. */
export const PIECE_MEMBERS = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  input_json_delta: 'partial_json',
} as const;

export type PieceDeltaType = keyof typeof PIECE_MEMBERS;

export function isPieceDelta(type: string | undefined): type is PieceDeltaType {
  return type !== undefined && Object.hasOwn(PIECE_MEMBERS, type);
}

/**
 * The piece of text a `content_block_delta` event carries, with its delta type and the member that
 * holds it; undefined for any other event.
 */
export function readPieceDelta(
  event: unknown,
): { type: PieceDeltaType; member: (typeof PIECE_MEMBERS)[PieceDeltaType]; piece: string } | undefined {
  const read = asJsonObject(event);
  if (read?.type !== 'content_block_delta') return undefined;
  const delta = asJsonObject(read.delta);
  const type = asString(delta?.type);
  if (!isPieceDelta(type)) return undefined;
  const member = PIECE_MEMBERS[type];
  const piece = asString(delta![member]);
  return piece === undefined ? undefined : { type, member, piece };
}

/** The delta of `type` that carries `piece`. */
export function pieceDelta(type: PieceDeltaType, piece: string): AnthropicBlockDelta {
  switch (type) {
    case 'text_delta':
      return { type, text: piece };
    case 'thinking_delta':
      return { type, thinking: piece };
    case 'input_json_delta':
      return { type, partial_json: piece };
  }
}
