import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * A passthrough whose body needs no change sends the client's bytes as they came: no
 * re-serialisation, so spacing, member order, escapes and number spellings reach the upstream
 * exactly. A body that does change (a mapped model, usage asked for in a stream) is serialised anew.
 */

let fx: RelayFixture;
beforeAll(async () => {
  fx = await startRelayFixture();
});
afterAll(() => fx.close());

async function post(path: string, text: string) {
  const before = fx.upstream.requests.length;
  const response = await fetch(`${fx.gw.origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: text,
  });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  expect(fx.upstream.requests).toHaveLength(before + 1);
  return fx.upstream.requests[before]!;
}

// Spacing, member order, a `\u` escape, a surrogate pair and a number JSON.stringify would respell.
const chatText = (extra = '') =>
  `{ "messages" : [ {"content":"caf\\u00e9 \\ud83e\\udd8a", "role":"user"} ],\n` +
  `  "temperature": 0.10000000000000001, "model":"gpt-4o-mini" ${extra}}`;

test('chat completions: an unmapped model leaves the body as it came, byte for byte', async () => {
  const received = await post('/v1/chat/completions', chatText());
  expect(received.rawBody?.toString('utf8')).toBe(chatText());
});

test('a stream that asked for usage itself is unchanged too', async () => {
  const text = chatText(', "stream": true, "stream_options": {"include_usage": true}');
  const received = await post('/v1/chat/completions', text);
  expect(received.rawBody?.toString('utf8')).toBe(text);
});

test('responses: the same for an unmapped model', async () => {
  const text = '{"input": "caf\\u00e9",   "model": "gpt-4o-mini", "temperature": 1.0}';
  const received = await post('/v1/responses', text);
  expect(received.rawBody?.toString('utf8')).toBe(text);
});

test('a mapped model is written into a body serialised anew, the rest of it equal', async () => {
  const received = await post('/v1/chat/completions', chatText().replace('gpt-4o-mini', 'gpt-4o'));
  const sent = received.rawBody!.toString('utf8');
  expect(sent).not.toBe(chatText().replace('gpt-4o-mini', 'gpt-4o'));
  expect(JSON.parse(sent)).toEqual({
    ...JSON.parse(chatText()),
    model: 'gpt-4o-2024-08-06',
  });
});

test('a stream without usage asked for gets it added, in a body serialised anew', async () => {
  const text = chatText(', "stream": true');
  const received = await post('/v1/chat/completions', text);
  expect(JSON.parse(received.rawBody!.toString('utf8'))).toEqual({
    ...JSON.parse(text),
    stream_options: { include_usage: true },
  });
});

// A passthrough reads only the usage of a complete reply: the rest is checked but never parsed.
test('usage is read from a reply of megabytes, past a text that quotes a usage of its own', async () => {
  const text = 'Quoting {"usage":{"prompt_tokens":1,"completion_tokens":1}}, [brackets] and \\ too. '.repeat(
    40_000,
  );
  fx.upstream.script({ type: 'reply', text, usage: { inputTokens: 7, outputTokens: 123_456 } });
  const completion = await fx.openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'A long answer, please.' }],
  });
  expect(completion.choices[0]!.message.content).toBe(text);
  expect(completion.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 123_456 });
  const [log] = await fx.logs();
  expect(log).toMatchObject({ prompt_tokens: 7, completion_tokens: 123_456 });
});

test('a large reply without usage is charged on the text it produced, read only then', async () => {
  const text = 'word '.repeat(200_000);
  fx.upstream.script({ type: 'reply', text, omitUsage: true });
  const completion = await fx.openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'A long answer, please.' }],
  });
  expect(completion.choices[0]!.message.content).toBe(text);
  expect(completion.usage).toBeUndefined();
  const [log] = await fx.logs();
  // About a token per word, counted on a prefix and scaled to the whole.
  expect(log.completion_tokens).toBeGreaterThan(150_000);
  expect(log.completion_tokens).toBeLessThan(250_000);
});

// A request body of 128 KiB or more is parsed in pieces (no string of the whole body is made).
const longChat = (tail = '') =>
  `{"model": "gpt-4o-mini", "messages": [` +
  Array.from(
    { length: 300 },
    (_, turn) =>
      `{"role": "${turn % 2 ? 'assistant' : 'user'}", "content": "caf\\u00e9 ${'turn '.repeat(700)}"}`,
  ).join(', ') +
  `]${tail}}`;

test('a request body of megabytes is read in pieces and forwarded byte for byte', async () => {
  const text = longChat(', "temperature": 0.5');
  expect(text.length).toBeGreaterThan(1_000_000);
  const received = await post('/v1/chat/completions', text);
  expect(received.rawBody?.toString('utf8')).toBe(text);
});

test('a request body of megabytes that is not JSON is refused as any other', async () => {
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: longChat().slice(0, -1) + ',}',
  });
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: { message: string } };
  expect(body.error.message).toMatch(
    /^Invalid request: Unexpected .* in JSON at position \d+, invalid JSON request body /,
  );
});
