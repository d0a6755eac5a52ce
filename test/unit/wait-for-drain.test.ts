import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendRelayResponse } from '../../src/http/send-relay-response.js';
import { waitForDrain } from '../../src/http/wait-for-drain.js';

describe('waitForDrain', () => {
  it('leaves no listener behind, whether the stream drains or closes', async () => {
    const stream = new PassThrough();
    for (let round = 0; round < 1000; round++) {
      const waiting = waitForDrain(stream);
      stream.emit('drain');
      await waiting;
    }
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
    expect(stream.listenerCount('error')).toBe(0);

    const waiting = waitForDrain(stream);
    stream.destroy();
    await waiting;
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
  });

  it('does not wait on a stream already destroyed', async () => {
    const stream = new PassThrough();
    stream.destroy();
    await sleep(1);
    await expect(waitForDrain(stream)).resolves.toBeUndefined();
  });
});

describe('sendRelayResponse to a slow client', () => {
  it('keeps the listener count bounded over many backpressure waits', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const chunkCount = 300;
    const samples = { closeListeners: [] as number[], errorListeners: [] as number[], drains: 0 };
    const app = Fastify();
    app.get('/stream', async (_request, reply) => {
      const raw = reply.raw;
      raw.on('drain', () => (samples.drains += 1));
      async function* chunks() {
        for (let index = 0; index < chunkCount; index++) {
          samples.closeListeners.push(raw.listenerCount('close'));
          samples.errorListeners.push(raw.listenerCount('error'));
          yield chunk;
        }
      }
      return sendRelayResponse(reply, { kind: 'stream', status: 200, headers: {}, chunks: chunks() });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    try {
      const received = await new Promise<number>((resolve, reject) => {
        const outgoing = request({ host: '127.0.0.1', port, path: '/stream' }, async (response) => {
          let bytes = 0;
          // A slow reader: a pause after every piece keeps the server's buffer full.
          for await (const piece of response) {
            bytes += (piece as Buffer).length;
            await sleep(1);
          }
          resolve(bytes);
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
      expect(received).toBe(chunk.length * chunkCount);
      expect(samples.drains).toBeGreaterThan(20);
      const first = samples.closeListeners[0] ?? 0;
      expect(Math.max(...samples.closeListeners)).toBeLessThanOrEqual(first + 1);
      expect(Math.max(...samples.errorListeners)).toBeLessThanOrEqual((samples.errorListeners[0] ?? 0) + 1);
    } finally {
      await app.close();
    }
  });
});
