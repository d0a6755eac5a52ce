import { WebSocket } from 'ws';

/** Why a socket's reading is paused (one bit each); it resumes once no reason is left. */
export const PauseReason = {
  /** The other side cannot take more yet. */
  Backpressure: 1,
  /** A `response.create` waits for its reservation; later frames must not overtake it. */
  Reservation: 2,
} as const;
export type PauseReason = (typeof PauseReason)[keyof typeof PauseReason];

/** A socket whose reading is paused while any reason holds. */
export class PausableSocket {
  private reasons = 0;

  constructor(readonly socket: WebSocket) {}

  hold(reason: PauseReason): void {
    if (this.reasons === 0) this.socket.pause();
    this.reasons |= reason;
  }

  /** Closing: the socket must be read again, or the peer's answering close frame is never seen. */
  releaseAll(): void {
    if (this.reasons === 0) return;
    this.reasons = 0;
    this.socket.resume();
  }

  release(reason: PauseReason): void {
    if ((this.reasons & reason) === 0) return;
    this.reasons &= ~reason;
    if (this.reasons === 0) this.socket.resume();
  }
}

/** Past this many bytes waiting to be written to the target, the source stops being read... */
const HIGH_WATER_BYTES = 512 * 1024;
/** ...until they are down to this. */
const LOW_WATER_BYTES = 128 * 1024;

/**
 * Sends frames to one socket of the relay as they come from the other, frame for frame (text as
 * text, binary as binary), and applies backpressure: while too much waits to be written to the
 * target, the source is not read, so neither a slow client nor a slow upstream makes the gateway
 * buffer without bound. The count follows each send's completion callback, which `ws` calls once
 * the frame is handed to the socket (or the socket failed).
 */
export class FlowControlledSender {
  private waiting = 0;

  constructor(
    private readonly target: WebSocket,
    private readonly source: PausableSocket,
  ) {}

  send(data: Buffer | string, binary: boolean): void {
    if (this.target.readyState !== WebSocket.OPEN) return;
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.waiting += size;
    this.target.send(data, { binary }, () => {
      this.waiting -= size;
      if (this.waiting <= LOW_WATER_BYTES) this.source.release(PauseReason.Backpressure);
    });
    if (this.waiting > HIGH_WATER_BYTES) this.source.hold(PauseReason.Backpressure);
  }
}
