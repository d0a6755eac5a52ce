import type { FastifyReply } from 'fastify';
import type { RelayResponse } from '../relay/relay-response.js';
import type { ServerResponse } from 'node:http';
import type { BodyCapture } from '../relay/body-capture.js';
import { Cancellation } from '../relay/cancellation.js';
import type { ChunkSink } from '../relay/relay-stream.js';

/**
 * Writes a relayed reply; a stream's relay writes to the socket itself, chunk by chunk. With
 * `bodies`, what is written is kept for the request's stored bodies too.
 */
export async function sendRelayResponse(
  reply: FastifyReply,
  response: RelayResponse,
  bodies?: BodyCapture,
): Promise<void> {
  if (response.kind === 'complete') {
    bodies?.add(response.body);
    await reply.code(response.status).headers(response.headers).send(response.body);
    return;
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(response.status, { ...(reply.getHeaders() as Record<string, string>), ...response.headers });
  // The head goes out at once, but in the same write as the first chunk when the relay has that
  // chunk in hand (it writes it as it starts): one socket write less before the client's first
  // byte. The relay uncorks the socket itself for a first output it sends ahead of its chunk.
  raw.cork();
  raw.flushHeaders();
  let relayed: Promise<void>;
  try {
    // Audio is not kept: stored bodies are text.
    const audio = response.headers['content-type']?.toLowerCase().startsWith('audio/') ?? false;
    relayed = response.relay(bodies && !audio ? new CapturingSink(raw, bodies) : raw);
  } finally {
    raw.uncork();
  }
  try {
    await relayed;
  } finally {
    // The relay ends the reply with its last write; this is for one that failed before that.
    if (!raw.destroyed && !raw.writableEnded) raw.end();
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

/** The client's connection, keeping a copy of what is written to it. */
class CapturingSink implements ChunkSink {
  constructor(
    private readonly raw: ServerResponse,
    private readonly bodies: BodyCapture,
  ) {}

  get destroyed(): boolean {
    return this.raw.destroyed;
  }

  write(chunk: Buffer | string): boolean {
    this.bodies.add(chunk);
    return this.raw.write(chunk);
  }

  uncork(): void {
    this.raw.uncork();
  }

  end(): void {
    this.raw.end();
  }

  once(event: 'drain' | 'close', listener: () => void): void {
    this.raw.once(event, listener);
  }

  off(event: 'drain' | 'close', listener: () => void): void {
    this.raw.off(event, listener);
  }
}
