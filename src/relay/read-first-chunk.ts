import { finished, type Readable } from 'node:stream';

/**
 * The first chunk of a streamed upstream body, read before the client is answered so that another
 * channel can still be tried; undefined when the body ends empty. The body is left paused for the
 * relay, which takes it on with `relayStream`.
 */
export function readFirstChunk(body: Readable): Promise<Buffer | undefined> {
  // An error before the relay listens (the client leaving meanwhile aborts the call) would be
  // thrown with no listener; the relay reads it from the stream's state instead (see `finished`).
  body.on('error', ignore);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      body.pause();
      stopListening();
      resolve(chunk);
    };
    const stopWatching = finished(body, (error) => {
      stopListening();
      if (error) reject(error);
      else resolve(undefined);
    });
    const stopListening = () => {
      body.off('data', onData);
      stopWatching();
    };
    body.on('data', onData);
  });
}

function ignore(): void {}
