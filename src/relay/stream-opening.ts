import { classifyFailure, type FailureKind } from '../routing/policy/failure-kind.js';
import type { StreamTransform } from './transforms.js';
import type { UpstreamBody } from './upstream-call.js';

/** A stream's beginning, read through its transform but not yet sent. */
export interface StreamOpening {
  /** What the transform made of the chunks read so far, to send before anything else. */
  held: (Buffer | string)[];
  /** The upstream's stream ended within the opening: `held` includes what the transform's `end` gave. */
  ended: boolean;
  /** The stream failed before its first content (admin-api section 11.3): the failure's kind. */
  failure: FailureKind | undefined;
}

/**
 * A stream that never sends content is held no longer than this: its opening goes out and the
 * stream counts as answered.
 */
const MAX_HELD_BYTES = 64 * 1024;

/**
 * Reads a stream until its first content (text, reasoning or tool arguments), its failure or its
 * end, and no further: an upstream error event before the first content is a failure another
 * candidate may answer instead, and nothing has reached the client yet. The body stays paused
 * after the opening. A transport failure while reading it is thrown, as the first chunk's is.
 */
export async function readStreamOpening(
  body: UpstreamBody,
  transform: StreamTransform,
  firstChunk: Buffer | undefined,
): Promise<StreamOpening> {
  const held: (Buffer | string)[] = [];
  let heldBytes = 0;
  const hold = (out: Buffer | string | undefined) => {
    if (out === undefined) return;
    held.push(out);
    heldBytes += out.length;
  };
  let chunk = firstChunk;
  for (;;) {
    if (chunk === undefined) {
      hold(transform.end());
      return { held, ended: true, failure: failureOf(transform) };
    }
    hold(transform.push(chunk));
    if (transform.failure()) return { held, ended: false, failure: failureOf(transform) };
    if (heldBytes >= MAX_HELD_BYTES || transform.producedText() !== '' || transform.hasContent?.())
      return { held, ended: false, failure: undefined };
    chunk = await body.first();
  }
}

function failureOf(transform: StreamTransform): FailureKind | undefined {
  const failure = transform.failure();
  if (!failure || transform.producedText() !== '') return undefined;
  if (failure.kind === 'broken') return 'server_error';
  return classifyFailure({ kind: 'stream-error', error: { message: failure.message } });
}
