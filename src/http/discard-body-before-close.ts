import type { IncomingMessage } from 'node:http';

/** However low the body limit, this many bytes of a refused body are read before giving up. */
const MIN_DISCARD_BYTES = 8 * 1024 * 1024;
/** How long, from the refusal, the connection stays open for the rest of a refused body. */
export const DISCARD_TIME_LIMIT_MS = 5_000;

/**
 * Reads and throws away the rest of a refused request body while its `connection: close` answer
 * goes out, and only then closes the connection.
 *
 * Why: once such an answer is flushed, Node destroys the socket (`resOnFinish` calls
 * `socket.destroySoon()`, lib/_http_server.js). A socket closed with unread bytes makes the kernel
 * answer with RST, and a client still writing its body then gets ECONNRESET or EPIPE instead of
 * the answer. So this one socket's close waits: its write side ends as usual (the client reads the
 * whole answer and a FIN), and it is destroyed once the body ended, past the larger of 4x the
 * limit and 8 MiB, or after `DISCARD_TIME_LIMIT_MS`; a client that closes first is followed by
 * Node's own close (`socketOnEnd`, or `clientError` for a cut body). Nothing of the discarded bytes
 * is kept. Called only on a refusal: requests within the limit pay nothing.
 */
export function discardBodyBeforeClose(request: IncomingMessage, limit: number): void {
  const socket = request.socket;
  const closeSoon = socket.destroySoon;
  const maxBytes = Math.max(limit * 4, MIN_DISCARD_BYTES);
  let discarded = 0;
  let answered = false;
  const timer = setTimeout(() => socket.destroy(), DISCARD_TIME_LIMIT_MS);

  const stop = () => {
    clearTimeout(timer);
    request.off('data', onData);
    request.off('end', onEnd);
    socket.off('close', stop);
    socket.destroySoon = closeSoon;
  };
  function onData(chunk: Buffer) {
    discarded += chunk.length;
    if (discarded <= maxBytes) return;
    stop();
    // Past the bound: no more reading; the close below, or Node's own, resets the connection.
    request.pause();
    if (answered) closeSoon.call(socket);
  }
  function onEnd() {
    stop();
    if (answered) closeSoon.call(socket);
  }
  socket.destroySoon = function closeOnceBodyDiscarded() {
    answered = true;
    if (socket.writable) socket.end();
  };
  request.on('data', onData);
  request.on('end', onEnd);
  socket.on('close', stop);
}
