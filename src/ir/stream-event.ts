import type { FilePart, IssuedToken } from './content.js';
import type { FinishReason } from './reply.js';
import type { Usage } from './usage.js';

/**
 * Canonical stream events (DESIGN section 4). Grammar: `response-start` first; each block is
 * start, deltas, end with one `index`; blocks may interleave; one `finish` last, which may be
 * followed by a trailing `usage`. An `error` may end the stream anywhere. A `file` is a block
 * that arrives whole (an image a model generated), so it has no start, deltas or end.
 */
export type StreamEvent =
  | { type: 'response-start'; id: string; model: string; created: number }
  | { type: 'text-start'; index: number }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'text-end'; index: number }
  | { type: 'reasoning-start'; index: number; redactedData?: IssuedToken }
  | { type: 'reasoning-delta'; index: number; text: string }
  | { type: 'reasoning-end'; index: number; signature?: IssuedToken }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number; signature?: IssuedToken }
  | FileEvent
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; finishReason: FinishReason; usage?: Usage }
  | StreamError;

/**
 * A failure that ends the stream: the upstream's own error event, or the gateway's. `message` is
 * the upstream's words, shown to the client in its family's error event; `status` is the HTTP
 * status the upstream's error stands for (503 overloaded, 429 rate limited...), when known.
 */
export interface StreamError {
  type: 'error';
  message: string;
  code?: string;
  status?: number;
}

/**
 * A whole file the model produced (an image from a Gemini image model), a block of its own with
 * an index never used by another block. A signature that rode on the file's wire part comes just
 * before it as a reasoning block with no text, as in replies (see `CanonicalReply.parts`).
 */
export interface FileEvent {
  type: 'file';
  index: number;
  file: FilePart;
}
