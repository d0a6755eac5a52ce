import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { openAIChatCodec } from '../../src/protocols/openai-chat/codec.js';
import { openAIChatPassthrough } from '../../src/protocols/openai-chat/passthrough.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

// A failure inside the gateway is its own 500 `internal_error`: never `upstream request failed`,
// never a client error, never charged, and never counted against the channel.
let fx: RelayFixture;

beforeAll(async () => {
  fx = await startRelayFixture();
  await fx.gw.admin('PATCH', '/settings', { retry_times: 0 });
});
afterAll(async () => fx.close());
afterEach(() => vi.restoreAllMocks());

const chat = (model = 'gpt-4o') =>
  send(fx.gw.origin, '/v1/chat/completions', {
    method: 'POST',
    headers: bearer(fx.key),
    body: { model, messages: [{ role: 'user', content: 'hi' }] },
  });

async function expectUntouched() {
  const health = (await fx.gw.admin('GET', `/channels/${fx.channelId}/health`)).body;
  expect(health.data[0]).toEqual({ model: 'gpt-4o', state: 'healthy', failures: 0, until: null });
  expect((await fx.gw.admin('GET', `/channels/${fx.channelId}`)).body.status).toBe('enabled');
}

test('a body the gateway cannot serialise is a 500 internal_error; the channel is not blamed', async () => {
  const before = await fx.user();
  vi.spyOn(openAIChatPassthrough, 'prepareRequest').mockImplementation((body) => ({
    body: { ...body, seed: 10n },
    hideUsageEvents: false,
  }));
  for (let attempt = 0; attempt < 6; attempt += 1) {
    expectOpenAIError(await chat(), {
      status: 500,
      code: 'internal_error',
      message: 'the gateway failed while handling this request; it was not charged',
    });
  }
  expect(fx.upstream.requests).toHaveLength(0);
  await expectUntouched();
  const logs = await fx.logs();
  expect(logs[0]).toMatchObject({ status_code: 500, cost: 0 });
  expect((await fx.user()).balance).toBe(before.balance);
});

test('an exception of the gateway while decoding is a 500, not a 400 convert_request_failed', async () => {
  vi.spyOn(openAIChatCodec, 'decodeRequest').mockImplementation(() => {
    throw new TypeError("Cannot read properties of undefined (reading 'parts')");
  });
  // The effort modifier makes even a same-protocol request go through the decoder.
  const response = await chat('gpt-4o@high');
  expectOpenAIError(response, {
    status: 500,
    code: 'internal_error',
    message: 'the gateway failed while handling this request; it was not charged',
  });
  await expectUntouched();
});

test("the codec's own validation errors stay client errors (400 convert_request_failed)", async () => {
  const response = await send(fx.gw.origin, '/v1/chat/completions', {
    method: 'POST',
    headers: bearer(fx.key),
    body: { model: 'gpt-4o@high', messages: [{ role: 'wizard', content: 'hi' }] },
  });
  expect(response.status).toBe(400);
  expect(response.body.error.code).toBe('convert_request_failed');
});
