import { createRequire } from 'node:module';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * The reservation takes a bound of the prompt's tokens (its UTF-8 length) and counts them with the
 * tokenizer only when it must: a refusal on the bound is decided again on the count, and a reply
 * that reports its usage never loads the vocabulary at all.
 */

// About 18,000 bytes of English, about 4,000 tokens.
const prompt = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(290);
const countedTokens = countTokens(['user', prompt].join('\n'));
const boundTokens = Buffer.byteLength(['user', prompt].join('\n'));
// gpt-4o: 2.50 USD per million input tokens, 10.00 per million output; max_tokens 1.
const preChargeUsd = (tokens: number) => (tokens * 2.5 + 10) / 1e6;

const tokenizerLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('o200k_base'));

let fx: RelayFixture;
beforeAll(async () => {
  fx = await startRelayFixture({ balance: 10 });
});
afterAll(() => fx.close());

async function chat() {
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', max_tokens: 1, messages: [{ role: 'user', content: prompt }] }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function setBalance(usd: number) {
  expect((await fx.gw.admin('PATCH', `/users/${fx.userId}`, { balance: usd })).status).toBe(200);
}

test('a reply that reports its usage is reserved and settled without loading the tokenizer', async () => {
  expect(boundTokens).toBeGreaterThan(3 * countedTokens);
  expect(tokenizerLoaded()).toBe(false);
  expect((await chat()).status).toBe(200);
  const [log] = await fx.logs();
  expect(log.prompt_tokens).toBe(20);
  expect(tokenizerLoaded()).toBe(false);
});

test('a balance below the bound but above the counted pre-charge is enough', async () => {
  await setBalance((preChargeUsd(countedTokens) + preChargeUsd(boundTokens)) / 2);
  const before = fx.upstream.requests.length;
  expect((await chat()).status).toBe(200);
  expect(fx.upstream.requests.length).toBe(before + 1);
  expect(tokenizerLoaded()).toBe(true);
});

test('a refusal names the counted pre-charge, not the bound', async () => {
  await setBalance(0.005);
  const refused = await chat();
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('insufficient_user_quota');
  expect(refused.body.error.message).toMatch(
    new RegExp(
      `^预扣费额度失败, 用户剩余额度: \\$0\\.005000, 需要预扣费额度: \\$${preChargeUsd(countedTokens).toFixed(6).replace('.', '\\.')} `,
    ),
  );
  expect((await fx.user()).balance).toBeCloseTo(0.005, 9);
});

test('a capped key is held to the counted pre-charge the same way', async () => {
  await setBalance(10);
  const quota = (preChargeUsd(countedTokens) + preChargeUsd(boundTokens)) / 2;
  await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { unlimited_quota: false, quota });
  expect((await chat()).status).toBe(200);
  const key = (await fx.gw.admin('GET', `/keys/${fx.keyId}`)).body;
  const [log] = await fx.logs();
  expect(key.quota).toBeCloseTo(quota - log.cost, 12);
});
