import type { Readable } from 'node:stream';
import { Cancellation } from '../../src/relay/cancellation.js';
import { readFirstChunk } from '../../src/relay/read-first-chunk.js';
import type { Completion } from '../../src/relay/request-account.js';
import { relayStream, type StreamRelay } from '../../src/relay/relay-stream.js';
import type { StreamTransform } from '../../src/relay/transforms.js';

/** A transform that reads nothing: `push` decides the output, the rest says all went well. */
export function transformOf(push: StreamTransform['push']): StreamTransform {
  return {
    push,
    end: () => undefined,
    failure: () => undefined,
    usage: () => undefined,
    producedText: () => '',
    errorEvent: () => '',
  };
}

/** A transform that passes every chunk on as it is. */
export const identityTransform = (): StreamTransform => transformOf((chunk) => chunk);

/** The relay of `body` through `transform`, as the gateway starts one once the first chunk is in. */
export async function testStreamRelay(
  body: Readable,
  transform: StreamTransform,
  onFinish: (completion: Completion) => void = () => undefined,
): Promise<StreamRelay> {
  return relayStream({
    transform,
    firstChunk: await readFirstChunk(body),
    body,
    account: { markFirstByte: () => undefined, finish: onFinish },
    cancellation: new Cancellation(),
    idleTimeoutSeconds: 60,
    language: 'en',
    requestId: 'request-1',
    onClosed: () => undefined,
  });
}
