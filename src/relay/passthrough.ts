import type { PassthroughCodec } from '../protocols/passthrough-codec.js';
import { LossLog } from '../ir/loss.js';
import type { ProtocolCodec } from '../protocols/protocol-codec.js';
import { producedTextOf } from './produced-text.js';
import { SseFrameParser } from '../protocols/sse/sse-frame-parser.js';
import { SseFrameSplitter } from '../protocols/sse/sse-frame-splitter.js';
import { CUT_MID_EVENT_DETAIL } from '../protocols/sse/stream-break.js';
import type { ReplyTransform, StreamFailure, StreamTransform } from './transforms.js';

/**
 * Same protocol both sides: the reply's bytes go to the client untouched; usage is read on the side,
 * and only the usage is parsed. Only when the upstream counted no output is the reply decoded, to
 * count what it produced.
 */
export function passthroughReply(codec: PassthroughCodec, protocol: ProtocolCodec): ReplyTransform {
  return (upstreamBody, reply) => ({
    body: upstreamBody,
    usage: codec.usageFromReply(reply),
    producedText: () => producedTextOf(protocol.decodeReply(reply.value(), new LossLog()).parts),
    facts: () => codec.replyFacts?.(reply.value()),
  });
}

/**
 * Same protocol both sides: the upstream's bytes go to the client whole frame by whole frame,
 * exactly as they came, while the codec's tap reads each event once for usage and validity. An
 * event the protocol cannot read, a close mid-frame or a missing last event ends the stream as
 * broken, after every valid frame before it. The upstream's own error event goes out like any
 * other and marks the stream failed: later frames still pass until the upstream ends, and no
 * error event of the gateway's is added. The usage-only event the client did not ask for is left
 * out.
 */
export function passthroughStream(
  codec: PassthroughCodec,
  options: { hideUsageEvents: boolean },
): StreamTransform {
  const tap = codec.createStreamTap({ hideUsageEvents: options.hideUsageEvents });
  const parser = new SseFrameParser();
  const output = new FrameOutput();
  let failure: StreamFailure | undefined;
  let upstreamError: string | undefined;
  /** Until the first frame went out: where it goes at once. */
  let sendFirst: ((out: Buffer) => void) | undefined;
  let sentFirst = false;
  const forward = (bytes: Buffer, start: number, end: number) => {
    output.add(bytes, start, end);
    if (sentFirst || !sendFirst) return;
    sentFirst = true;
    sendFirst(output.take()!);
  };

  const splitter = new SseFrameSplitter((bytes, start, end) => {
    if (failure) return;
    const event = parser.parse(bytes, start, end);
    if (!event) return forward(bytes, start, end);
    const verdict = tap.onEvent(event);
    switch (verdict.kind) {
      case 'forward':
        return forward(bytes, start, end);
      case 'hide':
        return;
      case 'upstream-error':
        upstreamError ??= verdict.message;
        return forward(bytes, start, end);
      case 'invalid':
        failure =
          upstreamError === undefined
            ? { kind: 'broken', detail: verdict.detail }
            : { kind: 'reported', message: upstreamError };
        return;
      default: {
        const unreachable: never = verdict;
        return unreachable;
      }
    }
  });

  return {
    push(chunk, send) {
      sendFirst = send;
      if (!failure) splitter.push(chunk);
      sendFirst = undefined;
      return output.take();
    },
    end() {
      if (failure) return undefined;
      const { rest, incomplete } = splitter.end();
      if (upstreamError !== undefined) {
        failure = { kind: 'reported', message: upstreamError };
        return output.take();
      }
      const missing = incomplete ? CUT_MID_EVENT_DETAIL : tap.missingEnd();
      if (missing !== undefined) failure = { kind: 'broken', detail: missing };
      else if (rest) output.add(rest, 0, rest.length);
      return output.take();
    },
    failure: () => failure,
    usage: () => tap.usage(),
    producedText: () => tap.producedText(),
    facts: () => tap.facts?.(),
    errorEvent: (error) => tap.errorEvent(error),
  };
}

/**
 * The frames to send for one chunk. Frames that lie next to each other in one buffer (the usual
 * case: a chunk of whole frames) go out as one slice of it, without copying.
 */
class FrameOutput {
  private parts: Buffer[] = [];
  private bytes: Buffer | undefined;
  private start = 0;
  private end = 0;

  add(bytes: Buffer, start: number, end: number): void {
    if (bytes === this.bytes && start === this.end) {
      this.end = end;
      return;
    }
    this.flush();
    this.bytes = bytes;
    this.start = start;
    this.end = end;
  }

  take(): Buffer | undefined {
    if (this.parts.length === 0) {
      const bytes = this.bytes;
      if (!bytes) return undefined;
      this.bytes = undefined;
      return this.start === 0 && this.end === bytes.length ? bytes : bytes.subarray(this.start, this.end);
    }
    this.flush();
    const joined = Buffer.concat(this.parts);
    this.parts = [];
    return joined;
  }

  private flush(): void {
    if (this.bytes) this.parts.push(this.bytes.subarray(this.start, this.end));
    this.bytes = undefined;
  }
}
