import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { request } from 'undici';
import { Cancellation } from '../../src/relay/cancellation.js';

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A loopback server that takes requests and never answers them. */
async function silentServer(): Promise<{ url: string; requests: () => number; closed: () => number }> {
  let requests = 0;
  let closed = 0;
  server = createServer((incoming) => {
    requests += 1;
    incoming.socket.once('close', () => (closed += 1));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, requests: () => requests, closed: () => closed };
}

test('an upstream call waiting for its answer ends with the reason when the cancellation aborts', async () => {
  const upstream = await silentServer();
  const cancellation = new Cancellation();
  const call = request(upstream.url, { method: 'POST', body: '{}', signal: cancellation });
  await expect.poll(upstream.requests).toBe(1);
  const reason = new Error('client closed the connection');
  cancellation.abort(reason);
  await expect(call).rejects.toBe(reason);
  await expect.poll(upstream.closed).toBe(1);
});

test('a call started after the cancellation aborted is not sent', async () => {
  const upstream = await silentServer();
  const cancellation = new Cancellation();
  cancellation.abort(new Error('gone'));
  await expect(request(upstream.url, { method: 'POST', body: '{}', signal: cancellation })).rejects.toThrow(
    'gone',
  );
  expect(upstream.requests()).toBe(0);
});

test('the AbortSignal follows the cancellation, whether it is made before or after the abort', () => {
  const early = new Cancellation();
  const signal = early.signal;
  expect(signal.aborted).toBe(false);
  const reason = new Error('shutdown');
  early.abort(reason);
  expect([signal.aborted, signal.reason]).toEqual([true, reason]);

  const late = new Cancellation();
  late.abort(reason);
  expect([late.signal.aborted, late.signal.reason]).toEqual([true, reason]);
});

test('abort is told once, and the first reason stays', () => {
  const cancellation = new Cancellation();
  let told = 0;
  cancellation.on('abort', () => (told += 1));
  const first = new Error('first');
  cancellation.abort(first);
  cancellation.abort(new Error('second'));
  expect([told, cancellation.aborted, cancellation.reason]).toEqual([1, true, first]);
});
