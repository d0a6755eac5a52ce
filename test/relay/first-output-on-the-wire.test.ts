import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendRelayResponse } from '../../src/http/send-relay-response.js';
import { testStreamRelay, transformOf } from '../helpers/test-stream-relay.js';

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
});
