import type { FinishReason } from './reply.js';
import type { Usage } from './usage.js';

/**
 * Canonical stream events (DESIGN section 4). Grammar: `response-start` first; each block is
 * start, deltas, end with one `index`; blocks may interleave; one `finish` last, which may be
 * followed by a trailing `usage`. An `error` may end the stream anywhere.
 */
export type StreamEvent =
  | { type: 'response-start'; id: string; model: string; created: number }
  | { type: 'text-start'; index: number }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'text-end'; index: number }
  | { type: 'reasoning-start'; index: number; redactedData?: string }
  | { type: 'reasoning-delta'; index: number; text: string }
  | { type: 'reasoning-end'; index: number; signature?: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number; signature?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; finishReason: FinishReason; usage?: Usage }
  | { type: 'error'; message: string; code?: string };
