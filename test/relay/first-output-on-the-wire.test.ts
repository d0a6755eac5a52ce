import { get } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendRelayResponse } from '../../src/http/send-relay-response.js';
import { testStreamRelay, transformOf } from '../helpers/test-stream-relay.js';
import type { StreamTransform } from '../../src/relay/transforms.js';

/** Milliseconds on a clock every thread of the process shares. */
const now = () => performance.timeOrigin + performance.now();

/**
 * A client on a thread of its own, so that it reads while the server's thread is busy: it asks for
 * the stream and reports when its first bytes of body and its end arrived.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const now = () => performance.timeOrigin + performance.now();
http.get({ host: '127.0.0.1', port: workerData.port, path: '/stream' }, (response) => {
  let firstAt;
  let body = '';
  response.on('data', (piece) => { firstAt ??= now(); body += piece; });
  response.on('end', () => parentPort.postMessage({ firstAt, endAt: now(), body }));
});
`;

describe("a stream's first output", () => {
  it('is on the wire before the rest of its chunk is converted', async () => {
    const BUSY_MS = 600;
    let restReadyAt = 0;
    /** Sends its first event at once, then spends a while on the rest of the chunk. */
    const slowTransform = transformOf((_chunk, send) => {
      send?.('data: first\n\n');
      const started = now();
      while (now() - started < BUSY_MS) {
        // The conversion of a long chunk, compressed into one busy stretch.
      }
      restReadyAt = now();
      return 'data: rest\n\n';
    });
    const app = Fastify();
    app.get('/stream', async (_request, reply) => {
      const upstreamBody = Readable.from([Buffer.from('one chunk holding every event')]);
      const relay = await testStreamRelay(upstreamBody, slowTransform);
      return sendRelayResponse(reply, { kind: 'stream', status: 200, headers: {}, relay });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = new Worker(CLIENT, { eval: true, workerData: { port } });
    try {
      const seen = await new Promise<{ firstAt: number; endAt: number; body: string }>((resolve, reject) => {
        client.once('message', resolve);
        client.once('error', reject);
      });
      expect(seen.body).toBe('data: first\n\ndata: rest\n\n');
      // Held back until the tick ended, the first event would arrive with the rest, after the busy stretch.
      expect(seen.firstAt).toBeLessThan(restReadyAt - BUSY_MS / 2);
      expect(seen.endAt).toBeGreaterThanOrEqual(restReadyAt);
    } finally {
      await client.terminate();
      await app.close();
    }
  });

  /** Serves `upstream` through `transform`; records what each write to the client's socket held. */
  async function serveStream(upstream: () => Readable, transform: StreamTransform) {
    const writes: { at: number; text: string }[] = [];
    const app = Fastify();
    app.server.on('connection', (socket: Socket) => {
      const write = socket._write.bind(socket);
      socket._write = (chunk, encoding, callback) => {
        writes.push({ at: now(), text: String(chunk) });
        write(chunk, encoding, callback);
      };
      const writev = socket._writev!.bind(socket);
      socket._writev = (chunks, callback) => {
        writes.push({ at: now(), text: chunks.map(({ chunk }) => String(chunk)).join('') });
        writev(chunks, callback);
      };
    });
    app.get('/stream', async (_request, reply) => {
      const relay = await testStreamRelay(upstream(), transform);
      return sendRelayResponse(reply, { kind: 'stream', status: 200, headers: {}, relay });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    try {
      const seen = await new Promise<{ headersAt: number; body: string }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/stream' }, (response) => {
          const headersAt = now();
          let body = '';
          response.on('data', (piece) => (body += piece));
          response.on('end', () => resolve({ headersAt, body }));
        }).on('error', reject);
      });
      return { ...seen, writes };
    } finally {
      await app.close();
    }
  }

  it('leaves in the same write as the head', async () => {
    const { body, writes } = await serveStream(
      () => Readable.from([Buffer.from('data: first\n\n')]),
      transformOf((chunk) => chunk),
    );
    expect(body).toBe('data: first\n\n');
    expect(writes[0]!.text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\ndata: first\n\n\r\n/);
  });

  it('does not hold the head back when the first chunk gives nothing to send', async () => {
    const PAUSE_MS = 400;
    let secondAt = 0;
    const { headersAt, body, writes } = await serveStream(
      () =>
        Readable.from(
          (async function* () {
            yield Buffer.from(': still thinking\n\n');
            await sleep(PAUSE_MS);
            secondAt = now();
            yield Buffer.from('data: answer\n\n');
          })(),
        ),
      transformOf((chunk) => (String(chunk).startsWith(':') ? undefined : chunk)),
    );
    expect(body).toBe('data: answer\n\n');
    expect(writes[0]!.text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    expect(headersAt).toBeLessThan(secondAt - PAUSE_MS / 2);
  });

  it('leaves its last output and its end in one write', async () => {
    const { body, writes } = await serveStream(
      () =>
        Readable.from(
          (async function* () {
            yield Buffer.from('data: first\n\n');
            await sleep(50);
            yield Buffer.from('data: last\n\n');
          })(),
        ),
      transformOf((chunk) => chunk),
    );
    expect(body).toBe('data: first\n\ndata: last\n\n');
    expect(writes.at(-1)!.text).toBe('c\r\ndata: last\n\n\r\n0\r\n\r\n');
  });
});
