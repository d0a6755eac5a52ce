import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBareProxy, type BareProxy } from '../../bench/bare-proxy-server.js';

// The bench's floor must do no more than a gateway's passthrough: the body goes on as it came.

const received: Buffer[] = [];
let upstream: Server;
let proxy: BareProxy;
let origin: string;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      received.push(Buffer.concat(parts));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  const upstreamOrigin = await listen(upstream);
  proxy = createBareProxy({ upstream: upstreamOrigin, upstreamKey: 'up', proxyKey: 'bench-key' });
  origin = await listen(proxy.server);
});

afterAll(async () => {
  proxy.server.closeAllConnections();
  proxy.server.close();
  await proxy.agent.close();
  upstream.close();
});

const post = (body: string, key = 'bench-key') =>
  fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });

describe('the bench bare proxy', () => {
  it('forwards the bytes it received, not a serialisation of their parse', async () => {
    const body = '{ "model" : "m",\n  "messages": [{"role":"user","content":"caf\\u00e9 1.50"}], "n": 1.0 }';
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(received.at(-1)?.toString('utf8')).toBe(body);
  });

  it('still checks the key and that the body is a JSON object', async () => {
    const before = received.length;
    expect((await post('{"model":"m"}', 'wrong')).status).toBe(401);
    expect((await post('{"model":')).status).toBe(400);
    expect((await post('[1]')).status).toBe(400);
    expect(received).toHaveLength(before);
  });
});
