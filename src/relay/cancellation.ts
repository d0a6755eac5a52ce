import { EventEmitter } from 'node:events';

/**
 * Tells a relayed request to stop: its client left, or shutdown ended it. The upstream call's
 * reader listens to it (`callUpstream`); it costs a fraction of an AbortController, which in Node
 * 20 takes microseconds and about 2 KB on every request. The few callers that need an AbortSignal
 * (downloads, credential exchanges) get one that follows it, made on first use.
 */
export class Cancellation extends EventEmitter {
  #aborted = false;
  #reason: unknown = undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.emit('abort');
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}
