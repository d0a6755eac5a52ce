import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * A reply of several megabytes reaches the gateway in many pieces, with its usage after the text:
 * the client gets it whole, and the usage log and the balance follow the usage at its end.
 */

let fx: RelayFixture;
beforeAll(async () => {
  fx = await startRelayFixture();
});
afterAll(() => fx.close());

// Two- and four-byte characters, so that pieces of the reply split them.
const text = 'café 🦊 déjà vu, '.repeat(200_000);
const usage = { inputTokens: 1234, outputTokens: 4321, cachedTokens: 0, reasoningTokens: 0 };
// gpt-4o-mini at 0.15 / 0.60 USD per million tokens: (1234 * 0.15 + 4321 * 0.6) / 1e6
const cost = 0.0027777;

async function post(path: string, body: unknown): Promise<{ status: number; reply: any; bytes: number }> {
  const response = await fetch(`${fx.gw.origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, reply: JSON.parse(bytes.toString('utf8')), bytes: bytes.length };
}

/** The newest usage record is the reply's, by its usage, and the balance fell by its cost; returns the record. */
async function expectBilled(endpoint: string, balanceBefore: number): Promise<any> {
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    endpoint,
    status_code: 200,
    prompt_tokens: 1234,
    completion_tokens: 4321,
    cost,
  });
  const after = await fx.user();
  expect(after.balance).toBeCloseTo(balanceBefore - cost, 12);
  return log;
}

test('chat completions: a reply of several megabytes comes whole and is billed by the usage at its end', async () => {
  const before = await fx.user();
  fx.upstream.script({ type: 'reply', text, usage });
  const { status, reply, bytes } = await post('/v1/chat/completions', {
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Say it at length.' }],
  });
  expect(status).toBe(200);
  expect(bytes).toBeGreaterThan(4 * 1024 * 1024);
  expect(reply.choices[0].message.content).toBe(text);
  expect(reply.usage).toMatchObject({ prompt_tokens: 1234, completion_tokens: 4321 });
  const log = await expectBilled('chat-completions', before.balance);
  expect(log.error).toBeNull();
});

test('responses: the same', async () => {
  const before = await fx.user();
  fx.upstream.script({ type: 'reply', text, usage });
  const { status, reply } = await post('/v1/responses', { model: 'gpt-4o-mini', input: 'Say it at length.' });
  expect(status).toBe(200);
  const message = reply.output.find((item: any) => item.type === 'message');
  expect(message.content[0].text).toBe(text);
  await expectBilled('responses', before.balance);
});
