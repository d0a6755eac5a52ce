import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { FinishReason } from '../../../src/ir/reply.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import {
  convertConverseUsage,
  encodeConverseUsage,
} from '../../../src/protocols/bedrock-converse/convert-bedrock-converse-usage.js';
import {
  converseStopReasons,
  mapConverseStopReason,
  toConverseStopReason,
} from '../../../src/protocols/bedrock-converse/map-bedrock-converse-stop-reason.js';

describe('converse stop reasons', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['malformed_model_output', 'error'],
    ['malformed_tool_use', 'error'],
    ['something_new', 'other'],
  ])('%s is %s, the raw value kept', (raw, unified) => {
    expect(mapConverseStopReason(raw)).toEqual({ unified, raw });
  });

  it('every stop reason goes back as itself', () => {
    for (const raw of converseStopReasons) {
      const losses = new LossLog();
      expect(toConverseStopReason(mapConverseStopReason(raw), losses)).toBe(raw);
      expect(losses.losses).toEqual([]);
    }
  });

  it.each([
    [{ unified: 'stop', raw: 'STOP' }, 'end_turn'],
    [{ unified: 'length', raw: 'length' }, 'max_tokens'],
    [{ unified: 'tool-calls', raw: 'stop' }, 'tool_use'],
    [{ unified: 'content-filter', raw: 'SAFETY' }, 'content_filtered'],
    [{ unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }, 'malformed_model_output'],
    [{ unified: 'stop', raw: 'tool_use' }, 'end_turn'],
  ] satisfies [FinishReason, string][])('another protocol’s %j is %s', (finishReason, expected) => {
    expect(toConverseStopReason(finishReason, new LossLog())).toBe(expected);
  });
});

describe('converse usage', () => {
  it('input counts the cache reads and writes Converse counts apart; writes split by TTL', () => {
    const raw = {
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 345,
      cacheReadInputTokens: 200,
      cacheWriteInputTokens: 130,
      cacheDetails: [
        { ttl: '1h', inputTokens: 100 },
        { ttl: '5m', inputTokens: 30 },
      ],
    };
    expect(convertConverseUsage(raw)).toEqual({
      inputTokens: 340,
      cacheReadTokens: 200,
      cacheWriteTokens: 130,
      cacheWrite1hTokens: 100,
      cacheWrite5mTokens: 30,
      outputTokens: 5,
      reasoningTokens: 0,
      webSearchCalls: 0,
      estimated: false,
      raw,
    });
    expect(encodeConverseUsage(convertConverseUsage(raw), { inputTokens: 0 })).toEqual(raw);
  });

  it('unknown counts stay unknown; a block with neither count is no usage', () => {
    expect(convertConverseUsage({ outputTokens: 3 })?.inputTokens).toBeUndefined();
    expect(convertConverseUsage({ totalTokens: 3 })).toBeUndefined();
    expect(convertConverseUsage('3')).toBeUndefined();
  });

  it('encodes unknown input as the given estimate, never below zero', () => {
    expect(encodeConverseUsage(undefined, { inputTokens: 12 })).toEqual({
      inputTokens: 12,
      outputTokens: 0,
      totalTokens: 12,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 0,
    });
    expect(
      encodeConverseUsage(
        { ...emptyUsage(), inputTokens: 5, cacheReadTokens: 8, outputTokens: 1 },
        { inputTokens: 0 },
      ),
    ).toMatchObject({ inputTokens: 0, cacheReadInputTokens: 8, totalTokens: 9 });
  });
});
