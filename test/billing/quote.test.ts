import { describe, expect, test } from 'vitest';
import { quoteCost, quotePreCharge } from '../../src/billing/quote.js';
import { usdToNano } from '../../src/billing/money.js';
import type { PriceRecord } from '../../src/store/prices-repository.js';

const price = (overrides: Partial<PriceRecord> = {}): PriceRecord => ({
  model: 'm',
  input: usdToNano(2.5),
  output: usdToNano(10),
  cachedInput: null,
  cacheWrite: null,
  perRequest: null,
  inputAudio: null,
  outputAudio: null,
  perMinute: null,
  perMillionCharacters: null,
  ...overrides,
});

describe('quoteCost', () => {
  test('audio tokens at the audio prices, falling back to the text prices', () => {
    const usage = {
      inputTokens: 1000,
      cacheReadTokens: 200,
      cacheWriteTokens: 0,
      outputTokens: 500,
      calls: 1,
      inputAudioTokens: 600,
      outputAudioTokens: 400,
    };
    const priced = price({ inputAudio: usdToNano(40), outputAudio: usdToNano(80) });
    // 200 text * 2.5 + 600 audio * 40 + 200 cached * 2.5 + 100 text * 10 + 400 audio * 80
    // = 500 + 24000 + 500 + 1000 + 32000 = 58000 -> 0.058 USD
    expect(quoteCost(priced, usage, 1)).toBe(58_000_000);
    // Without audio prices, the text prices: (800 * 2.5 + 200 * 2.5 + 500 * 10) / 1e6
    expect(quoteCost(price(), usage, 1)).toBe(7_500_000);
    // Audio counts beyond the totals are capped by them.
    expect(quoteCost(priced, { ...usage, inputAudioTokens: 5000, outputAudioTokens: 5000 }, 1)).toBe(
      // 800 audio * 40 + 200 cached * 2.5 + 500 audio * 80 = 32000 + 500 + 40000
      72_500_000,
    );
  });

  test('minutes of input audio and characters of speech input', () => {
    const none = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, calls: 1 };
    const perMinute = price({ perMinute: usdToNano(0.006) });
    // 90 s = 1.5 min * 0.006 = 0.009 USD
    expect(quoteCost(perMinute, { ...none, audioSeconds: 90 }, 1)).toBe(9_000_000);
    expect(quoteCost(perMinute, { ...none, audioSeconds: 90 }, 2)).toBe(18_000_000);
    const perCharacter = price({ perMillionCharacters: usdToNano(15) });
    // 2000 characters * 15 / 1e6 = 0.03 USD
    expect(quoteCost(perCharacter, { ...none, characters: 2000 }, 1)).toBe(30_000_000);
    expect(quoteCost(price(), { ...none, audioSeconds: 90, characters: 2000 }, 1)).toBe(0);
  });

  test('uncached input, output and the group ratio', () => {
    const usage = { inputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 500, calls: 1 };
    // (1000 * 2.5 + 500 * 10) / 1e6 USD = 0.0075 USD
    expect(quoteCost(price(), usage, 1)).toBe(7_500_000);
    expect(quoteCost(price(), usage, 0.5)).toBe(3_750_000);
  });

  test('cache reads and writes at their own prices, falling back to the input price', () => {
    const usage = {
      inputTokens: 1000,
      cacheReadTokens: 600,
      cacheWriteTokens: 100,
      outputTokens: 0,
      calls: 1,
    };
    const priced = price({ cachedInput: usdToNano(0.25), cacheWrite: usdToNano(3.125) });
    // 300 * 2.5 + 600 * 0.25 + 100 * 3.125 = 750 + 150 + 312.5 = 1212.5 -> 0.0012125 USD
    expect(quoteCost(priced, usage, 1)).toBe(1_212_500);
    // all 1000 at the input price when no cache prices are set
    expect(quoteCost(price(), usage, 1)).toBe(2_500_000);
  });

  test('per-request price is charged per call', () => {
    const usage = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, calls: 3 };
    expect(quoteCost(price({ perRequest: usdToNano(0.04) }), usage, 1)).toBe(120_000_000);
  });

  test('fractions of a nano-dollar round once at the end', () => {
    const usage = { inputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, calls: 0 };
    // 1 token at 0.0000015 USD per 1M = 1.5e-12 USD
    expect(quoteCost(price({ input: 1500 }), usage, 1)).toBe(0);
    expect(quoteCost(price({ input: 1_500_000 }), usage, 1)).toBe(2);
  });
});

test('pre-charge: estimated input plus the full output cap plus one call', () => {
  const amount = quotePreCharge({
    price: price({ perRequest: usdToNano(0.01) }),
    estimatedInputTokens: 100,
    outputCap: 8192,
    calls: 1,
    groupRatio: 2,
  });
  // (100 * 2.5 + 8192 * 10) / 1e6 + 0.01 = 0.09217 USD, times 2
  expect(amount).toBe(184_340_000);
});
