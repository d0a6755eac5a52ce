import type { Dispatcher } from 'undici';
import { errors } from 'undici';
import type { UpstreamCall, UpstreamHead } from './call-upstream.js';
import type { Cancellation } from './cancellation.js';
import { ReplyDeadline } from './classify-transport-failure.js';

export interface WholeCall extends Omit<UpstreamCall, 'headersTimeoutMs' | 'bodyTimeoutMs'> {
  /** The whole reply, headers and body, within this many milliseconds (`upstream_timeout_s`). */
  withinMs: number;
  /** The longest body a reply below 400 may have. */
  maxBytes: number;
  /** What is kept of the body of an error reply (400 and above); the rest is not read. */
  maxErrorBytes: number;
}

export interface WholeReply extends UpstreamHead {
  /** The body; undefined when a reply below 400 passed `maxBytes` (the rest was not read). */
  body: Buffer | undefined;
}

/**
 * One POST to an upstream whose reply is read whole, over the shared keep-alive pools. It drives
 * undici's dispatcher with a handler of its own: the body's chunks go straight into a list, with no
 * stream, promise or async resource per reply between the socket and the relay (undici's
 * `request` makes all three, and they cost about a fifth of a relayed request's CPU). Throws on
 * transport failure, on the deadline (`ReplyDeadline`) and when the request is cancelled.
 */
export function callUpstreamWhole(call: WholeCall): Promise<WholeReply> {
  if (call.cancellation.aborted) return Promise.reject(cancelledReason(call.cancellation));
  const url = new URL(call.url);
  return new Promise((resolve, reject) => {
    const reader = new WholeReplyReader(call, resolve, reject);
    call.dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers: call.headers,
        body: call.body,
        headersTimeout: call.withinMs,
        bodyTimeout: call.withinMs,
      },
      reader,
    );
  });
}

/** Gathers one reply's body, within its limits and deadline; settles its promise once. */
class WholeReplyReader implements Dispatcher.DispatchHandler {
  private readonly startedAt = performance.now();
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the call was stopped before undici handed over its controller. */
  private stopReason: Error | undefined;
  private head: UpstreamHead | undefined;
  private chunks: Buffer[] = [];
  private length = 0;
  private limit = 0;
  private deadline: NodeJS.Timeout | undefined;
  private settled = false;

  constructor(
    private readonly call: WholeCall,
    private readonly resolve: (reply: WholeReply) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    call.cancellation.on('abort', this.cancelled);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.stopReason) controller.abort(this.stopReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: UpstreamHead['headers'],
  ): void {
    if (statusCode < 200 || this.settled) return;
    this.head = { statusCode, headers };
    this.limit = statusCode >= 400 ? this.call.maxErrorBytes : this.call.maxBytes;
    // Whole milliseconds: Node keeps a timer list per distinct delay, and a fractional one would
    // make (and drop) a list for every request.
    const remainingMs = Math.max(1, Math.ceil(this.call.withinMs - (performance.now() - this.startedAt)));
    this.deadline = setTimeout(this.deadlinePassed, remainingMs);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const isError = this.head!.statusCode >= 400;
    const length = this.length + chunk.length;
    if (isError ? length < this.limit : length <= this.limit) {
      this.chunks.push(chunk);
      this.length = length;
      return;
    }
    // At the limit: an error reply keeps what fits, a reply below 400 is refused whole.
    if (isError) {
      this.chunks.push(chunk.subarray(0, this.limit - this.length));
      this.length = this.limit;
      this.finish(this.gathered());
    } else {
      this.finish(undefined);
    }
    this.controller?.abort(new Error('the rest of the upstream reply was not read'));
  }

  onResponseEnd(): void {
    this.finish(this.gathered());
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(error);
  }

  private readonly cancelled = (): void => this.stop(cancelledReason(this.call.cancellation));

  private readonly deadlinePassed = (): void => this.stop(new ReplyDeadline());

  private stop(reason: Error): void {
    this.fail(reason);
    if (this.controller) this.controller.abort(reason);
    else this.stopReason = reason;
  }

  private finish(body: Buffer | undefined): void {
    if (this.settled) return;
    this.end();
    this.resolve({ statusCode: this.head!.statusCode, headers: this.head!.headers, body });
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.end();
    this.reject(error);
  }

  private end(): void {
    this.settled = true;
    clearTimeout(this.deadline);
    this.call.cancellation.off('abort', this.cancelled);
  }

  private gathered(): Buffer {
    const { chunks } = this;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.length);
  }
}

/** The reason a cancelled call fails with, as undici gives it for an aborted signal. */
function cancelledReason(cancellation: Cancellation): Error {
  const { reason } = cancellation;
  return reason instanceof Error ? reason : new errors.RequestAbortedError();
}
