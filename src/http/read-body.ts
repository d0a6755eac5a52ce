import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors/gateway-error.js';
import { parseJsonWithin } from '../protocols/parse-json-within.js';
import { MAX_JSON_DEPTH } from '../protocols/wire-json.js';
import { discardBodyBeforeClose } from './discard-body-before-close.js';

/**
 * Reads a request body as bytes under the live `body_limit_bytes` setting. A declared length over
 * the limit is refused before any byte is read; a chunked body is refused as soon as it passes it.
 * The 413 closes the connection (`connection: close`); the rest of the body is read and thrown
 * away meanwhile, up to a bound (`discardBodyBeforeClose`), so the client is not reset while it
 * still writes and does read the 413.
 */
export function readBody(stream: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(stream.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(refuseBody(stream, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > limit) {
        stop();
        reject(refuseBody(stream, limit));
        return;
      }
      chunks.push(chunk);
    }
    function onEnd() {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
    }
    function onError(error: Error) {
      stop();
      reject(error);
    }
    function onClose() {
      stop();
      reject(new Error('the request was closed before its body ended'));
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/**
 * A body refused before its end (over the limit, or malformed part way): its answer closes the
 * connection, and the rest of the body is read and thrown away meanwhile.
 */
export function refuseBody(
  stream: IncomingMessage,
  limit: number,
  error: GatewayError = new GatewayError('body_too_large', { limit }),
): GatewayError {
  discardBodyBeforeClose(stream, limit);
  return new GatewayError(error.errorName, error.params, {
    headers: { ...error.headers, connection: 'close' },
  });
}

export type BodyParseResult = { ok: true; value: unknown } | { ok: false; detail: string };

/**
 * A request body's JSON as a result; an empty body is an error too, and so is one nested deeper
 * than `MAX_JSON_DEPTH`, refused before anything recursive (the relay's re-serialisation, the
 * codecs) walks it.
 */
export function parseJson(body: Buffer | undefined): BodyParseResult {
  if (body === undefined || body.length === 0) return { ok: false, detail: 'empty request body' };
  const parsed = parseJsonWithin(body, { maxDepth: MAX_JSON_DEPTH });
  return parsed.ok ? parsed : { ok: false, detail: parsed.error };
}
