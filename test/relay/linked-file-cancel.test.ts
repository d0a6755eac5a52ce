import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { addAnthropicChannel, startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

let fx: RelayFixture;
let anthropic: FakeUpstream;
let fileServer: Server;
let fileRequests = 0;
let fileConnectionsClosed = 0;

beforeAll(async () => {
  fx = await startRelayFixture();
  anthropic = await addAnthropicChannel(fx);
  await fx.gw.admin('PATCH', '/settings', { image_fetch_allow_private: true });
  // Takes the download and never answers it.
  fileServer = createServer((incoming) => {
    fileRequests += 1;
    incoming.socket.once('close', () => (fileConnectionsClosed += 1));
  });
  await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  fileServer.closeAllConnections();
  await new Promise((resolve) => fileServer.close(resolve));
  await anthropic.close();
  await fx.close();
});

test('a client that leaves while a linked file is downloaded for the upstream cancels the download', async () => {
  const { port } = fileServer.address() as AddressInfo;
  const controller = new AbortController();
  const answer = fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `http://127.0.0.1:${port}/cat.png` } },
          ],
        },
      ],
    }),
    signal: controller.signal,
  }).catch((error: unknown) => error);
  await expect.poll(() => fileRequests).toBe(1);
  controller.abort();
  await answer;
  await expect.poll(() => fileConnectionsClosed, { timeout: 1_000 }).toBe(1);
  await expect.poll(() => fx.gw.gateway.services.tracker.activeCount, { timeout: 1_000 }).toBe(0);
  expect(anthropic.requests).toHaveLength(0);
  const [log] = await fx.logs();
  expect(log.cost).toBe(0);
});
