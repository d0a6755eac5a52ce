import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { sendRelayResponse } from '../../src/http/send-relay-response.js';
import type { Completion } from '../../src/relay/request-account.js';
import { waitForDrain } from '../../src/relay/wait-for-drain.js';
import { identityTransform, testStreamRelay } from '../helpers/test-stream-relay.js';

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

describe('a stream relayed to a slow client', () => {
  it('reads the upstream no faster than the client takes it, with the listener count bounded', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    // Long enough that the kernel's socket buffers between the two (several MiB on a loaded loopback)
    // stay well under a third of it.
    const chunkCount = 1000;
    const samples = { closeListeners: [] as number[], errorListeners: [] as number[], drains: 0 };
    const progress = { produced: 0, received: 0, mostAhead: 0 };
    const finished: Completion[] = [];
    const app = Fastify();
    app.get('/stream', async (_request, reply) => {
      const raw = reply.raw;
      raw.on('drain', () => (samples.drains += 1));
      const upstreamBody = Readable.from(
        (function* () {
          for (let index = 0; index < chunkCount; index++) {
            samples.closeListeners.push(raw.listenerCount('close'));
            samples.errorListeners.push(raw.listenerCount('error'));
            progress.produced += chunk.length;
            progress.mostAhead = Math.max(progress.mostAhead, progress.produced - progress.received);
            yield chunk;
          }
        })(),
      );
      const relay = await testStreamRelay(upstreamBody, identityTransform(), (completion) => {
        finished.push(completion);
      });
      return sendRelayResponse(reply, { kind: 'stream', status: 200, headers: {}, relay });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    try {
      await new Promise<void>((resolve, reject) => {
        const outgoing = request({ host: '127.0.0.1', port, path: '/stream' }, async (response) => {
          // A slow reader: a pause after every piece keeps the server's buffer full.
          for await (const piece of response) {
            progress.received += (piece as Buffer).length;
            await sleep(1);
          }
          resolve();
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
      const total = chunk.length * chunkCount;
      expect(progress.received).toBe(total);
      expect(samples.drains).toBeGreaterThan(20);
      // Paused while the client drains: what is read ahead is the buffers between the two, not the stream.
      expect(progress.mostAhead).toBeLessThan(total / 3);
      const first = samples.closeListeners[0] ?? 0;
      expect(Math.max(...samples.closeListeners)).toBeLessThanOrEqual(first + 1);
      expect(Math.max(...samples.errorListeners)).toBeLessThanOrEqual((samples.errorListeners[0] ?? 0) + 1);
      expect(finished).toEqual([expect.objectContaining({ statusCode: 200, charged: true, error: null })]);
    } finally {
      await app.close();
    }
  });
});

describe('a relayed stream whose first chunk fills the client buffer', () => {
  it('reads nothing more of the upstream until the client drains', async () => {
    const upstreamBody = Readable.from([Buffer.from('one'), Buffer.from('two'), Buffer.from('three')]);
    const held: (() => void)[] = [];
    const received: string[] = [];
    const client = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk.toString());
        held.push(callback);
      },
    });
    const handed = vi.spyOn(client, 'write');
    const relay = await testStreamRelay(upstreamBody, identityTransform());
    const relayed = relay(client);
    await sleep(50);
    expect(handed).toHaveBeenCalledTimes(1);
    const releasing = setInterval(() => held.shift()?.(), 5);
    await relayed;
    clearInterval(releasing);
    expect(received).toEqual(['one', 'two', 'three']);
  });
});
