import { describe, expect, it } from 'vitest';
import { convertGeminiUsage } from '../../../src/protocols/gemini/convert-gemini-usage.js';
import { encodeGeminiUsage } from '../../../src/protocols/gemini/encode-gemini-usage.js';
import {
  encodeGeminiFinishReason,
  geminiFinishReasons,
  mapGeminiFinishReason,
} from '../../../src/protocols/gemini/map-gemini-finish-reason.js';

describe('convertGeminiUsage', () => {
  it('adds thoughts to candidates and tool-use prompt tokens to the prompt, cache included in input', () => {
    const raw = {
      promptTokenCount: 100,
      cachedContentTokenCount: 60,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      toolUsePromptTokenCount: 5,
      totalTokenCount: 155,
    };
    expect(convertGeminiUsage(raw)).toEqual({
      inputTokens: 105,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
      outputTokens: 50,
      reasoningTokens: 30,
      webSearchCalls: 0,
      estimated: false,
      raw,
    });
  });

  it('leaves output unknown when a block says only the prompt, as a stream’s early chunks do', () => {
    expect(convertGeminiUsage({ promptTokenCount: 8, totalTokenCount: 8 })).toMatchObject({
      inputTokens: 8,
      outputTokens: undefined,
    });
    expect(convertGeminiUsage({ promptTokenCount: 8, totalTokenCount: 20 })).toMatchObject({
      outputTokens: 12,
    });
    expect(convertGeminiUsage({})).toBeUndefined();
    expect(convertGeminiUsage(null)).toBeUndefined();
    expect(convertGeminiUsage({ promptTokenCount: -1, candidatesTokenCount: 'x' })).toBeUndefined();
  });

  it('encodes canonical usage with candidates excluding thoughts, and a Gemini block unchanged', () => {
    const usage = {
      inputTokens: 100,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
      outputTokens: 50,
      reasoningTokens: 30,
      webSearchCalls: 0,
      estimated: false,
    };
    expect(encodeGeminiUsage(usage)).toEqual({
      promptTokenCount: 100,
      candidatesTokenCount: 20,
      totalTokenCount: 150,
      cachedContentTokenCount: 40,
      thoughtsTokenCount: 30,
    });
    const raw = {
      promptTokenCount: 100,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      totalTokenCount: 150,
    };
    const decoded = convertGeminiUsage(raw);
    expect(decoded && encodeGeminiUsage(decoded)).toBe(raw);
    expect(encodeGeminiUsage(undefined, 12)).toEqual({ promptTokenCount: 12, totalTokenCount: 12 });
  });
});

describe('mapGeminiFinishReason', () => {
  it('maps every Gemini value, a STOP with calls being tool-calls', () => {
    const table = Object.fromEntries(
      geminiFinishReasons.map((raw) => [raw, mapGeminiFinishReason(raw, { hasToolCalls: false }).unified]),
    );
    expect(table).toMatchInlineSnapshot(`
      {
        "BLOCKLIST": "content-filter",
        "CONTINUATION": "length",
        "FINISH_REASON_UNSPECIFIED": "other",
        "IMAGE_OTHER": "other",
        "IMAGE_PROHIBITED_CONTENT": "content-filter",
        "IMAGE_RECITATION": "content-filter",
        "IMAGE_SAFETY": "content-filter",
        "LANGUAGE": "other",
        "MALFORMED_FUNCTION_CALL": "error",
        "MAX_TOKENS": "length",
        "NO_IMAGE": "other",
        "OTHER": "other",
        "PROHIBITED_CONTENT": "content-filter",
        "RECITATION": "content-filter",
        "SAFETY": "content-filter",
        "SPII": "content-filter",
        "STOP": "stop",
        "TOO_MANY_TOOL_CALLS": "error",
        "UNEXPECTED_TOOL_CALL": "error",
      }
    `);
    expect(mapGeminiFinishReason('STOP', { hasToolCalls: true })).toEqual({
      unified: 'tool-calls',
      raw: 'STOP',
    });
    expect(mapGeminiFinishReason('SOMETHING_NEW', { hasToolCalls: false })).toEqual({
      unified: 'other',
      raw: 'SOMETHING_NEW',
    });
    expect(mapGeminiFinishReason(undefined, { hasToolCalls: false })).toEqual({
      unified: 'other',
      raw: undefined,
    });
  });

  it('encodes a finish reason, keeping a Gemini value that still means the same', () => {
    expect(encodeGeminiFinishReason({ unified: 'content-filter', raw: 'SPII' })).toBe('SPII');
    expect(encodeGeminiFinishReason({ unified: 'tool-calls', raw: 'tool_use' })).toBe('STOP');
    expect(encodeGeminiFinishReason({ unified: 'length', raw: 'max_tokens' })).toBe('MAX_TOKENS');
    expect(encodeGeminiFinishReason({ unified: 'content-filter', raw: 'refusal' })).toBe('SAFETY');
    expect(encodeGeminiFinishReason({ unified: 'stop', raw: 'MAX_TOKENS' })).toBe('STOP');
    expect(encodeGeminiFinishReason({ unified: 'error', raw: undefined })).toBe('OTHER');
  });
});
