import type { Writable } from 'node:stream';

/** What `waitForDrain` listens to: a writable stream or an HTTP response. */
export type DrainSource = Pick<Writable, 'destroyed' | 'once' | 'off'>;

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
