import type { Cancellation } from './cancellation.js';
import type { Language } from '../errors/catalogue.js';
import { GatewayError } from '../errors/gateway-error.js';
import { waitForDrain, type DrainSource } from './wait-for-drain.js';
import { classifyTransportFailure } from './classify-transport-failure.js';
import type { RequestAccount } from './request-account.js';
import type { StreamOpening } from './stream-opening.js';
import type { StreamTransform } from './transforms.js';
import type { UpstreamBody } from './upstream-call.js';

export interface StreamRelayOptions {
  transform: StreamTransform;
  firstChunk: Buffer | undefined;
  /** The stream read up to its first content, when it was (`firstChunk` is then part of it). */
  opening?: StreamOpening | undefined;
  /** The upstream's body, paused after its first chunk. */
  body: UpstreamBody;
  account: Pick<RequestAccount, 'markFirstByte' | 'finish'>;
  cancellation: Cancellation;
  idleTimeoutSeconds: number;
  language: Language;
  requestId: string;
  /** Called once the stream is over, however it ended. */
  onClosed: () => void;
}

/** The client's connection, as a stream relay writes to it. */
export interface ChunkSink extends DrainSource {
  /** False when the client's buffer is full: the relay waits for `drain` before reading on. */
  write(chunk: Buffer | string): boolean;
  /**
   * Sends what was written so far. An HTTP response corks its socket on each write until the
   * current tick ends, so without this a first output would wait for the rest of its chunk.
   */
  uncork(): void;
  /** Ends the reply; called in the tick of the last write, it leaves in the same socket write. */
  end(): void;
}

/** Relays the stream to the client; resolves once it is over and its account finished. */
export type StreamRelay = (client: ChunkSink) => Promise<void>;

/**
 * The client's side of an upstream stream: each upstream chunk goes through the transform and out
 * as undici parses it (no stream or promise between the two sockets), the upstream paused while the
 * client drains. However the stream ends (done, client gone, idle upstream, broken upstream, the
 * upstream's own error event), the account is finished once, on the usage known by then.
 */
export function relayStream(options: StreamRelayOptions): StreamRelay {
  return (client) => new Promise((resolve) => new StreamPump(options, client, resolve).start());
}

class StreamPump {
  private error: string | null = null;
  private over = false;
  /** The client's buffer is full: the body stays paused until it drains. */
  private draining = false;

  constructor(
    private readonly options: StreamRelayOptions,
    private readonly client: ChunkSink,
    private readonly resolve: () => void,
  ) {}

  start(): void {
    const { firstChunk, body, opening } = this.options;
    if (opening) {
      this.options.account.markFirstByte();
      for (const out of opening.held) this.send(out);
      if (this.over) return;
      this.client.uncork();
      if (opening.ended || this.options.transform.failure()) return this.endWithFailure();
    } else if (firstChunk) {
      this.options.account.markFirstByte();
      this.onData(firstChunk);
      if (this.over) return;
    }
    body.read(this.onData, this.onBodyEnded);
    if (!this.draining) body.resume();
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.over) return;
    let out: Buffer | string | undefined;
    try {
      out = this.options.transform.push(chunk, this.sendNow);
    } catch (error) {
      return this.fail(error);
    }
    this.send(out);
    if (this.options.transform.failure()) this.endWithFailure();
  };

  private readonly onBodyEnded = (error?: Error): void => {
    if (this.over) return;
    if (error) return this.fail(error);
    try {
      this.send(this.options.transform.end());
    } catch (caught) {
      return this.fail(caught);
    }
    this.endWithFailure();
  };

  /** A stream's first output goes on the wire at once, before the rest of its chunk is converted. */
  private readonly sendNow = (out: Buffer | string): void => {
    this.send(out);
    this.client.uncork();
  };

  private send(out: Buffer | string | undefined): void {
    if (out === undefined || this.over) return;
    if (this.client.destroyed) return this.finish();
    if (this.client.write(out)) return;
    const { body } = this.options;
    body.pause();
    this.draining = true;
    void waitForDrain(this.client).then(() => {
      this.draining = false;
      if (!this.over) body.resume();
    });
  }

  /** The upstream ended, or its transform stopped reading it: how the stream failed, if it did. */
  private endWithFailure(): void {
    const failure = this.options.transform.failure();
    switch (failure?.kind) {
      case undefined:
        break;
      case 'broken':
        this.sendError(new GatewayError('upstream_stream_broken', { detail: failure.detail }));
        break;
      case 'reported':
        // The client already has the upstream's own error event.
        this.error = `the upstream sent an error event: ${failure.message}`;
        break;
      default: {
        const unreachable: never = failure;
        return unreachable;
      }
    }
    this.finish();
  }

  private fail(caught: unknown): void {
    if (!this.options.cancellation.aborted) {
      const failure = classifyTransportFailure(caught, { stream: true });
      this.sendError(
        failure.kind === 'timeout'
          ? new GatewayError('upstream_timeout', {
              seconds: this.options.idleTimeoutSeconds,
              limit: failure.limit,
            })
          : new GatewayError('upstream_stream_broken', { detail: failure.detail }),
      );
    }
    this.finish();
  }

  /** Ends the client's stream with the gateway's own error event. */
  private sendError(error: GatewayError): void {
    this.error = error.message;
    this.send(
      this.options.transform.errorEvent({
        message: `${error.localizedMessage(this.options.language)} (request id: ${this.options.requestId})`,
        code: error.code,
        status: error.status,
      }),
    );
  }

  private finish(): void {
    if (this.over) return;
    this.over = true;
    const { body, cancellation, transform } = this.options;
    if (this.error === null && (cancellation.aborted || this.client.destroyed))
      this.error = abortReason(cancellation);
    body.destroy();
    if (!this.client.destroyed) this.client.end();
    this.options.onClosed();
    this.options.account.finish({
      statusCode: 200,
      charged: true,
      reported: transform.usage(),
      producedText: () => transform.producedText(),
      error: this.error,
      describeReply: () => transform.facts?.(),
    });
    this.resolve();
  }
}

/** Why the stream was cut from our side: the client left, or shutdown ended it. */
function abortReason(cancellation: Cancellation): string {
  const reason: unknown = cancellation.reason;
  return reason instanceof Error ? reason.message : 'client closed the connection';
}
