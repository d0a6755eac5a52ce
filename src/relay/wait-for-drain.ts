/** What `waitForDrain` listens to: a writable stream, an HTTP response, or what writes to one. */
export interface DrainSource {
  readonly destroyed: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * Resolves when `stream` drains or closes, whichever comes first, and removes both listeners
 * either way. `Promise.race` over two `events.once` calls would leave the loser's listener (and an
 * `error` listener) behind on every wait, piling up over a long stream to a slow client.
 */
export function waitForDrain(stream: DrainSource): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}
