import type { WebSocket } from 'ws';

/**
 * Keeps watch over open sockets with pings (RFC 6455 section 5.5.2): every interval each one is
 * pinged, and one that has not answered the previous ping by then is taken for dead and terminated
 * (its `close` event follows, with 1006). A peer that vanished without a close frame (a laptop shut,
 * a network gone) is noticed this way rather than holding its session open. One timer serves every
 * socket, so an idle session costs no timer of its own.
 */
export class Heartbeat {
  private readonly answered = new Map<WebSocket, boolean>();
  private timer: NodeJS.Timeout | undefined;
  /** One listener for every socket: `ws` calls it with the socket that got the pong as `this`. */
  private readonly markAnswered: (this: WebSocket) => void;

  constructor(private readonly intervalMs: number) {
    const answered = this.answered;
    this.markAnswered = function markAnswered(this: WebSocket) {
      if (answered.has(this)) answered.set(this, true);
    };
  }

  watch(socket: WebSocket): void {
    this.answered.set(socket, true);
    socket.on('pong', this.markAnswered);
    this.timer ??= this.start();
  }

  unwatch(socket: WebSocket): void {
    this.answered.delete(socket);
    socket.off('pong', this.markAnswered);
    if (this.answered.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private start(): NodeJS.Timeout {
    const timer = setInterval(() => this.beat(), this.intervalMs);
    timer.unref();
    return timer;
  }

  private beat(): void {
    for (const [socket, answered] of this.answered) {
      if (!answered) {
        this.unwatch(socket);
        socket.terminate();
        continue;
      }
      this.answered.set(socket, false);
      try {
        socket.ping();
      } catch {
        // Not open any more: its close is on its way.
      }
    }
  }
}
