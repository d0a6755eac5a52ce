import type { FastifyReply } from 'fastify';
import type { RelayResponse } from '../relay/relay-response.js';
import { Cancellation } from '../relay/cancellation.js';
import { waitForDrain } from './wait-for-drain.js';

/**
 * Writes a relayed reply. Streams go straight to the socket, chunk by chunk, waiting for the
 * client to drain when it is slow; when the client leaves, the chunk source is closed at once.
 */
export async function sendRelayResponse(reply: FastifyReply, response: RelayResponse): Promise<void> {
  if (response.kind === 'complete') {
    await reply.code(response.status).headers(response.headers).send(response.body);
    return;
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(response.status, { ...(reply.getHeaders() as Record<string, string>), ...response.headers });
  raw.flushHeaders();
  const { chunks } = response;
  try {
    for await (const chunk of chunks) {
      if (raw.destroyed) break;
      if (!raw.write(chunk)) await waitForDrain(raw);
    }
  } finally {
    await chunks.return(undefined);
    if (!raw.destroyed) raw.end();
  }
}

/** A cancellation that aborts when the client closes the connection before the reply is finished. */
export function abortWhenClientLeaves(reply: FastifyReply): Cancellation {
  const cancellation = new Cancellation();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) cancellation.abort(new Error('client closed the connection'));
  });
  return cancellation;
}
