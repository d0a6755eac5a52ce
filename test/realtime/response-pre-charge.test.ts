import { describe, expect, it } from 'vitest';
import { outputCapOf, quoteResponsePreCharge } from '../../src/http/realtime/response-pre-charge.js';
import type { PriceRecord } from '../../src/store/prices-repository.js';

/** Prices are nano-USD per million tokens. */
const perMillion = (usd: number) => usd * 1e9;
const price: PriceRecord = {
  model: 'gpt-realtime',
  input: perMillion(4),
  output: perMillion(16),
  cachedInput: perMillion(0.4),
  cacheWrite: null,
  perRequest: null,
  inputAudio: perMillion(32),
  outputAudio: perMillion(64),
  perMinute: null,
  perMillionCharacters: null,
};

describe('quoteResponsePreCharge', () => {
  it('the first response: its output cap at the output audio price', () => {
    // 1,000 tokens at 64 USD per million: 0.064 USD.
    const first = (groupRatio: number) =>
      quoteResponsePreCharge({ price, previous: undefined, outputCap: 1_000, groupRatio });
    expect(first(1)).toBe(64_000_000);
    expect(first(2)).toBe(128_000_000);
  });

  it("a later one: the previous response's input again, with its cached and audio shares", () => {
    const previous = {
      inputTokens: 1_000,
      cacheReadTokens: 200,
      cacheWriteTokens: 0,
      outputTokens: 50,
      reasoningTokens: 0,
      webSearchCalls: 0,
      inputAudioTokens: 500,
      estimated: false,
    };
    // 300 uncached text, 500 uncached audio, 200 cached; then the output cap.
    const input = (300 * perMillion(4) + 500 * perMillion(32) + 200 * perMillion(0.4)) / 1e6;
    expect(quoteResponsePreCharge({ price, previous, outputCap: 1_000, groupRatio: 1 })).toBe(
      Math.round(input + 64_000_000),
    );
  });
});

describe('outputCapOf', () => {
  it("the response's cap, else the session's; inf or none leaves it to the next source", () => {
    expect(outputCapOf({ max_output_tokens: 100 }, { max_output_tokens: 500 })).toBe(100);
    expect(outputCapOf({ max_output_tokens: 'inf' }, { max_output_tokens: 500 })).toBe(500);
    expect(outputCapOf(undefined, { max_response_output_tokens: 300 })).toBe(300);
    expect(outputCapOf(undefined, undefined)).toBeUndefined();
    expect(outputCapOf({ max_output_tokens: 0 })).toBeUndefined();
  });
});
