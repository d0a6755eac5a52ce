import type { Dispatcher } from 'undici';
import { errors } from 'undici';
import type { UpstreamBody, UpstreamCall, UpstreamHead, UpstreamReply } from './upstream-call.js';
import { ReplyDeadline } from './classify-transport-failure.js';

/**
 * undici's handler for one upstream call (see `callUpstream`). A streamed reply below 400 is
 * handed over as soon as its headers are in, and this reader is then its `UpstreamBody`: chunks go
 * to the relay as undici parses them, and pausing pauses undici's parser. Any other reply is
 * gathered whole, within its limit and, when not streamed, its deadline.
 */
export class UpstreamReplyReader implements Dispatcher.DispatchHandler, UpstreamBody {
  private readonly startedAt = performance.now();
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the call was stopped before undici handed over its controller. */
  private stopReason: Error | undefined;
  private head: UpstreamHead | undefined;
  /** The call's promise settled. */
  private answered = false;
  /** Handing chunks on as they come, rather than gathering them. */
  private streaming = false;
  /** The gathered body; or, streaming, the chunks that came while paused. */
  private chunks: Buffer[] = [];
  private length = 0;
  private limit = 0;
  private deadline: NodeJS.Timeout | undefined;
  private takeChunk: ((chunk: Buffer) => void) | undefined;
  private takeEnd: ((error?: Error) => void) | undefined;
  private paused = true;
  private ended = false;
  /** Why the streamed body failed, handed over with its end. */
  private failure: Error | undefined;
  /** The stream's `onEnd` was called, or it was destroyed: nothing more is handed over. */
  private over = false;

  /** What the reader needs of its call: not the request body, which a long stream would keep alive. */
  private readonly call: Pick<
    UpstreamCall,
    'cancellation' | 'stream' | 'waitMs' | 'maxBytes' | 'maxErrorBytes'
  >;

  constructor(
    call: UpstreamCall,
    private readonly resolve: (reply: UpstreamReply) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.call = {
      cancellation: call.cancellation,
      stream: call.stream,
      waitMs: call.waitMs,
      maxBytes: call.maxBytes,
      maxErrorBytes: call.maxErrorBytes,
    };
    call.cancellation.on('abort', this.cancelled);
  }

  readonly cancelled = (): void => {
    const { reason } = this.call.cancellation;
    this.stop(reason instanceof Error ? reason : new errors.RequestAbortedError());
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.stopReason) controller.abort(this.stopReason);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: UpstreamHead['headers'],
  ): void {
    if (statusCode < 200 || this.answered) return;
    this.head = { statusCode, headers };
    if (this.call.stream && statusCode < 400) {
      this.streaming = true;
      this.answered = true;
      controller.pause();
      this.resolve({ kind: 'stream', statusCode, headers, body: this });
      return;
    }
    this.limit = statusCode >= 400 ? this.call.maxErrorBytes : this.call.maxBytes;
    if (this.call.stream) return;
    // A reply whose body came in the same read as its headers has ended before this microtask
    // runs: it never needs the timer.
    queueMicrotask(this.armDeadline);
  }

  private readonly armDeadline = (): void => {
    if (this.answered) return;
    // Whole milliseconds: Node keeps a timer list per distinct delay, and a fractional one would
    // make (and drop) a list for every request.
    const remainingMs = Math.max(1, Math.ceil(this.call.waitMs - (performance.now() - this.startedAt)));
    this.deadline = setTimeout(this.deadlinePassed, remainingMs);
  };

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.streaming) {
      if (this.over) return;
      if (this.paused || !this.takeChunk) this.chunks.push(chunk);
      else this.takeChunk(chunk);
      return;
    }
    if (this.answered) return;
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
      this.answer(this.gathered());
    } else {
      this.answer(undefined);
    }
    this.controller?.abort(new Error('the rest of the upstream reply was not read'));
  }

  onResponseEnd(): void {
    if (!this.streaming) return this.answer(this.gathered());
    this.ended = true;
    if (!this.paused) this.handOverEnd();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (!this.streaming) return this.fail(error);
    this.ended = true;
    // A failure is handed over at once, paused or not, and what was waiting is dropped with it.
    this.failure = error;
    this.chunks = [];
    this.handOverEnd();
  }

  first(): Promise<Buffer | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.chunks.shift();
      if (waiting) return resolve(waiting);
      this.read(
        (chunk) => {
          this.pause();
          this.takeChunk = undefined;
          this.takeEnd = undefined;
          resolve(chunk);
        },
        (error) => (error ? reject(error) : resolve(undefined)),
      );
      this.resume();
    });
  }

  read(onData: (chunk: Buffer) => void, onEnd: (error?: Error) => void): void {
    this.takeChunk = onData;
    this.takeEnd = onEnd;
  }

  pause(): void {
    this.paused = true;
    this.controller?.pause();
  }

  resume(): void {
    this.paused = false;
    while (!this.paused && !this.over && this.takeChunk && this.chunks.length > 0)
      this.takeChunk(this.chunks.shift()!);
    if (this.paused || this.over) return;
    if (this.ended) this.handOverEnd();
    else this.controller?.resume();
  }

  destroy(): void {
    if (this.over) return;
    this.over = true;
    this.chunks = [];
    this.call.cancellation.off('abort', this.cancelled);
    if (!this.ended) this.controller?.abort(new Error('the relay stopped reading the upstream'));
  }

  private handOverEnd(): void {
    if (this.over || !this.takeEnd) return;
    this.over = true;
    this.call.cancellation.off('abort', this.cancelled);
    this.takeEnd(this.failure);
  }

  private readonly deadlinePassed = (): void => this.stop(new ReplyDeadline());

  /** Ends the call from the gateway's side: its promise fails (or its stream ends) with `reason`. */
  private stop(reason: Error): void {
    if (this.streaming) this.onResponseError(undefined, reason);
    else this.fail(reason);
    if (this.controller) this.controller.abort(reason);
    else this.stopReason = reason;
  }

  private answer(body: Buffer | undefined): void {
    if (this.answered) return;
    this.settle();
    this.resolve({ kind: 'whole', statusCode: this.head!.statusCode, headers: this.head!.headers, body });
  }

  private fail(error: unknown): void {
    if (this.answered) return;
    this.settle();
    this.reject(error);
  }

  private settle(): void {
    this.answered = true;
    clearTimeout(this.deadline);
    this.call.cancellation.off('abort', this.cancelled);
  }

  private gathered(): Buffer {
    const { chunks } = this;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.length);
  }
}
