import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeReply } from './fake-upstream.js';

/** How the fake harness puts replies on the wire: headers, chunks, and writes that notice a gone client. */

export const jsonHeaders = { 'content-type': 'application/json' };
export const sseHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};

/** A reply's chunks as written, and its headers. */
export function replyWire(reply: FakeReply): {
  chunks: (string | Uint8Array)[];
  headers: Record<string, string>;
} {
  switch (reply.kind) {
    case 'json':
      return { chunks: [JSON.stringify(reply.body)], headers: jsonHeaders };
    case 'sse':
      return { chunks: reply.events, headers: sseHeaders };
    case 'event-stream':
      return {
        chunks: reply.frames,
        headers: { 'content-type': 'application/vnd.amazon.eventstream', ...reply.headers },
      };
    case 'bytes':
      return { chunks: reply.chunks, headers: { 'content-type': reply.contentType } };
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { ...jsonHeaders, ...headers });
  response.end(JSON.stringify(body));
}

/** A 200 stream of exactly the given chunks, whatever they hold. */
export async function writeRawStream(
  response: ServerResponse,
  step: { chunks: (string | Uint8Array)[]; chunkDelayMs?: number },
): Promise<void> {
  response.writeHead(200, sseHeaders);
  for (const [index, chunk] of step.chunks.entries()) {
    if (index > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
    if (!(await write(response, chunk))) return;
  }
  response.end();
}

/** Resolves false when the client has gone. */
export function write(response: ServerResponse, chunk: string | Uint8Array): Promise<boolean> {
  return new Promise((resolve) => response.write(chunk, (error) => resolve(!error)));
}

/** Answers a WebSocket upgrade request with a plain HTTP error instead of switching protocols. */
export function refuseUpgrade(
  socket: Duplex,
  refusal: { status: number; body: unknown; headers?: Record<string, string> },
): void {
  const payload = JSON.stringify(refusal.body);
  const headers = {
    ...jsonHeaders,
    'content-length': String(Buffer.byteLength(payload)),
    connection: 'close',
    ...refusal.headers,
  };
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${payload}`);
}
