import { describe, expect, it } from 'vitest';
import { quoteCost } from '../../src/billing/quote.js';
import { resolveBillableUsage } from '../../src/billing/resolve-billable-usage.js';
import { exactTokens } from '../../src/billing/token-estimate.js';
import { convertRealtimeUsage } from '../../src/http/realtime/convert-realtime-usage.js';
import type { PriceRecord } from '../../src/store/prices-repository.js';

/** `response.done`'s usage as OpenAI documents it (realtime-server-events/response/done). */
const usage = {
  total_tokens: 1330,
  input_tokens: 1000,
  output_tokens: 330,
  input_token_details: {
    text_tokens: 400,
    audio_tokens: 600,
    image_tokens: 0,
    cached_tokens: 300,
    cached_tokens_details: { text_tokens: 100, audio_tokens: 200, image_tokens: 0 },
  },
  output_token_details: { text_tokens: 30, audio_tokens: 300 },
};

describe('convertRealtimeUsage', () => {
  it('keeps the audio of the uncached input and of the output; cached audio is cached input', () => {
    expect(convertRealtimeUsage(usage)).toEqual({
      inputTokens: 1000,
      cacheReadTokens: 300,
      cacheWriteTokens: 0,
      outputTokens: 330,
      reasoningTokens: 0,
      webSearchCalls: 0,
      inputAudioTokens: 400,
      outputAudioTokens: 300,
      estimated: false,
      raw: usage,
    });
  });

  it('costs each share at its price (prices in nano-USD per million tokens)', () => {
    const price: PriceRecord = {
      model: 'gpt-realtime',
      input: 4e9,
      output: 16e9,
      cachedInput: 0.4e9,
      cacheWrite: null,
      perRequest: null,
      inputAudio: 32e9,
      outputAudio: 64e9,
      perMinute: null,
      perMillionCharacters: null,
    };
    const { billable } = resolveBillableUsage({
      reported: convertRealtimeUsage(usage),
      inputTokens: exactTokens(0),
      producedText: () => '',
      calls: 0,
    });
    // Uncached: 300 text, 400 audio; cached 300; output 30 text, 300 audio.
    const expected = (300 * 4e9 + 400 * 32e9 + 300 * 0.4e9 + 30 * 16e9 + 300 * 64e9) / 1e6;
    expect(quoteCost(price, billable, 1)).toBe(Math.round(expected));
  });

  it('without the split of the cached tokens, none of them is taken for audio', () => {
    const converted = convertRealtimeUsage({
      input_tokens: 100,
      output_tokens: 10,
      input_token_details: { audio_tokens: 80, cached_tokens: 50 },
    });
    expect(converted).toMatchObject({ cacheReadTokens: 50, inputAudioTokens: 80, outputAudioTokens: 0 });
  });

  it('no usable usage: undefined, so the response is counted rather than free', () => {
    expect(convertRealtimeUsage(null)).toBeUndefined();
    expect(convertRealtimeUsage({ input_tokens: 5 })).toBeUndefined();
    expect(convertRealtimeUsage({ input_tokens: -1, output_tokens: 2 })).toBeUndefined();
  });
});
