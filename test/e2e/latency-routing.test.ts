import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * Latency-aware choice (admin-api sections 11.5 and 11.2's `strategy: latency`): with
 * `routing_strategy: latency` the channel answering first is preferred, a small share of requests
 * explores the others, and a channel that becomes the fast one again wins its traffic back.
 */
const KEY = 'latency-upstream-key';
const SLOWER_MS = 200;

let gw: TestGateway;
let key: string;
let fakes: FakeUpstream[];

beforeAll(async () => {
  fakes = await Promise.all([0, 1].map(() => startFakeOpenAI({ apiKey: KEY })));
  gw = await startTestGateway();
  for (const [index, fake] of fakes.entries()) {
    for (const model of ['gpt-4o', `only-${index}`])
      await gw.admin('POST', '/channels', {
        name: `${model}-${index}`,
        type: 'openai',
        base_url: fake.origin,
        keys: [KEY],
        models: [model],
      });
  }
  for (const model of ['gpt-4o', 'only-0', 'only-1'])
    await gw.admin('PUT', `/prices/${model}`, { input: 1, output: 1 });
  const user = await gw.admin('POST', '/users', { username: 'latency', balance: 100 });
  key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
});
afterAll(async () => {
  await gw?.close();
  await Promise.all(fakes.map((fake) => fake.close()));
});
beforeEach(() => {
  for (const fake of fakes) fake.clear();
});

async function chat(model: string): Promise<void> {
  const answer = await fetch(`${gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(answer.status).toBe(200);
  await answer.text();
}

const slowDown = (fake: FakeUpstream, delayMs: number | undefined) =>
  fake.scriptAlways(delayMs === undefined ? undefined : { type: 'reply', delayMs });

describe('routing_strategy latency', () => {
  beforeAll(async () => {
    await gw.admin('PATCH', '/settings', { routing_strategy: 'latency' });
  });
  afterAll(async () => {
    await gw.admin('PATCH', '/settings', { routing_strategy: 'weighted' });
    for (const fake of fakes) slowDown(fake, undefined);
  });

  test(`with one channel ${SLOWER_MS} ms slower, at least 85% of requests go to the fast one after warm-up`, async () => {
    slowDown(fakes[1]!, SLOWER_MS);
    for (let index = 0; index < 10; index += 1) await chat('gpt-4o');
    for (const fake of fakes) fake.clear();
    for (let index = 0; index < 100; index += 1) await chat('gpt-4o');
    expect(fakes[0]!.requests.length).toBeGreaterThanOrEqual(85);
  });

  test('a channel that becomes the fast one again gets its traffic back', async () => {
    slowDown(fakes[1]!, undefined);
    slowDown(fakes[0]!, 2 * SLOWER_MS);
    let requests = 0;
    while (fakes[1]!.requests.length < 5 && requests < 60) {
      await chat('gpt-4o');
      requests += 1;
    }
    expect(fakes[1]!.requests.length).toBeGreaterThanOrEqual(5);
    for (const fake of fakes) fake.clear();
    for (let index = 0; index < 20; index += 1) await chat('gpt-4o');
    expect(fakes[1]!.requests.length).toBeGreaterThanOrEqual(15);
  });
});

test('a virtual model of strategy latency leads with the target answering first', async () => {
  await gw.admin('POST', '/virtual-models', {
    name: 'quickest',
    strategy: 'latency',
    targets: [{ model: 'only-0' }, { model: 'only-1' }],
  });
  slowDown(fakes[0]!, SLOWER_MS);
  try {
    for (let index = 0; index < 10; index += 1) await chat('quickest');
    for (const fake of fakes) fake.clear();
    for (let index = 0; index < 60; index += 1) await chat('quickest');
    expect(fakes[1]!.requests.length).toBeGreaterThanOrEqual(51);
  } finally {
    slowDown(fakes[0]!, undefined);
  }
});
