import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * Reads a request body as bytes under the live `body_limit_bytes` setting. A declared length over
 * the limit is refused before any byte is read; a chunked body is cut off as soon as it passes it.
 */
export async function readBody(stream: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(stream.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) {
      stream.destroy();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError('body_too_large', { limit }, { headers: { connection: 'close' } });
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; detail: string };

/** Parses untrusted JSON into a result instead of throwing. */
export function parseJson(body: Buffer | undefined): JsonParseResult {
  if (body === undefined || body.length === 0) return { ok: false, detail: 'empty request body' };
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
}
