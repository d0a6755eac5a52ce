import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { createUpstreamDispatcher } from '../../src/providers/upstream-dispatcher.js';
import { callUpstream } from '../../src/relay/call-upstream.js';
import { Cancellation } from '../../src/relay/cancellation.js';
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

/**
 * The relay of `body` through `transform`, as the gateway starts one once the first chunk is in:
 * `body` is served by a loopback upstream (each of its chunks an HTTP chunk of its own) and read
 * through `callUpstream`. The upstream closes once the relay ends.
 */
export async function testStreamRelay(
  body: Readable,
  transform: StreamTransform,
  onFinish: (completion: Completion) => void = () => undefined,
): Promise<StreamRelay> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    body.pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dispatcher = createUpstreamDispatcher();
  const cancellation = new Cancellation();
  const reply = await callUpstream({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`,
    headers: {},
    body: '{}',
    cancellation,
    dispatcher,
    stream: true,
    waitMs: 60_000,
    maxBytes: 1 << 20,
    maxErrorBytes: 1 << 20,
  });
  if (reply.kind !== 'stream') throw new Error(`the test upstream answered ${reply.statusCode}`);
  return relayStream({
    transform,
    firstChunk: await reply.body.first(),
    body: reply.body,
    account: { markFirstByte: () => undefined, finish: onFinish },
    cancellation,
    idleTimeoutSeconds: 60,
    language: 'en',
    requestId: 'request-1',
    onClosed: () => {
      server.closeAllConnections();
      server.close();
      void dispatcher.close();
    },
  });
}
