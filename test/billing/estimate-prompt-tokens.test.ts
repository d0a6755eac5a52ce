import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, test } from 'vitest';
import { estimatePromptTokens } from '../../src/billing/estimate-prompt-tokens.js';

const chat = (content: unknown) => ({
  model: 'gpt-4o',
  stream: true,
  messages: [{ role: 'user', content }],
});

test('the count is the tokenizer count of the prompt texts; the bound is their UTF-8 length', () => {
  const estimate = estimatePromptTokens({
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello, how are you?' },
    ],
  });
  const text = ['system', 'You are terse.', 'user', 'Hello, how are you?'].join('\n');
  expect(estimate.count()).toBe(countTokens(text));
  expect(estimate.atMost).toBe(Buffer.byteLength(text));
});

test.each([
  ['English', 'The quick brown fox jumps over the lazy dog. '.repeat(40)],
  ['Chinese', '今天天气很好，我们去公园散步吧。'.repeat(40)],
  ['emoji and rare characters', '🦊𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ꙮ '.repeat(40)],
  ['whitespace', ' \n\t'.repeat(500)],
])('the bound is never below the count: %s', (_name, text) => {
  const estimate = estimatePromptTokens(chat(text));
  expect(estimate.count()).toBeGreaterThan(0);
  expect(estimate.atMost).toBeGreaterThanOrEqual(estimate.count());
});

test('a long text scaled from a dense prefix is capped at the bound', () => {
  // Each 'ꙮ' is three bytes and three tokens: the prefix scales to three tokens a character, more
  // than the ASCII rest has bytes.
  const text = 'ꙮ'.repeat(32_768) + 'a'.repeat(400_000);
  const estimate = estimatePromptTokens(chat(text));
  expect(estimate.atMost).toBe(Buffer.byteLength(['user', text].join('\n')));
  expect(estimate.count()).toBe(estimate.atMost);
});

test('inline file data counts as an image in both figures; model and stream are not prompt', () => {
  const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(8000)}` } };
  const estimate = estimatePromptTokens(chat([{ type: 'text', text: 'What is this?' }, image]));
  const text = ['user', 'text', 'What is this?', 'image_url'].join('\n');
  expect(estimate.count()).toBe(countTokens(text) + 765);
  expect(estimate.atMost).toBe(Buffer.byteLength(text) + 765);
});
