import { isJsonObject } from '../wire-json.js';
import type { ConverseBlockDeltaRead } from './wire-schemas.js';

/** The deltas that carry a piece of text: answer text, a tool call's input, reasoning text. */
export type PieceKind = 'text' | 'toolUse' | 'reasoningContent';

/** A `contentBlockDelta` payload whose delta holds one piece of text and nothing else. */
export interface PieceDeltaEvent {
  wireIndex: number;
  kind: PieceKind;
  /** The member whose string is the piece. */
  member: 'text' | 'input';
  piece: string;
}

/**
 * `payload` (a parsed `contentBlockDelta`) as a piece delta, when its delta holds the piece alone.
 * Members beside the index and the delta are not read by the decoder, so they may be anything.
 */
export function readPieceDeltaEvent(payload: unknown): PieceDeltaEvent | undefined {
  if (!isJsonObject(payload)) return undefined;
  const { contentBlockIndex: wireIndex, delta } = payload;
  if (typeof wireIndex !== 'number' || !isJsonObject(delta)) return undefined;
  const kinds = Object.keys(delta);
  const kind = kinds[0];
  if (kinds.length !== 1) return undefined;
  if (kind === 'text')
    return typeof delta.text === 'string'
      ? { wireIndex, kind, member: 'text', piece: delta.text }
      : undefined;
  if (kind !== 'toolUse' && kind !== 'reasoningContent') return undefined;
  const holder = delta[kind];
  const member = kind === 'toolUse' ? 'input' : 'text';
  if (!isJsonObject(holder) || !onlyKeys(holder, [member]) || typeof holder[member] !== 'string')
    return undefined;
  return { wireIndex, kind, member, piece: holder[member] };
}

/** The delta a payload of `kind` reads as with `piece` in it. */
export function pieceDeltaRead(kind: PieceKind, piece: string): ConverseBlockDeltaRead {
  switch (kind) {
    case 'text':
      return { text: piece };
    case 'toolUse':
      return { toolUse: { input: piece } };
    case 'reasoningContent':
      return { reasoningContent: { text: piece } };
  }
}

function onlyKeys(object: object, allowed: readonly string[]): boolean {
  return Object.keys(object).every((key) => allowed.includes(key));
}
