import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { decodeStreamText, encodeEvents, expectStreamGrammar, stable } from './helpers.js';

const start: StreamEvent = { type: 'response-start', id: 'msg_1', model: 'claude', created: 1 };
const usage = { ...emptyUsage(), inputTokens: 50, cacheReadTokens: 20, outputTokens: 9 };

describe('bedrock converse stream encoder', () => {
  it('writes messageStart, blocks by their own index, messageStop, then metadata once the usage came', () => {
    const losses = new LossLog();
    const text = encodeEvents(
      [
        start,
        { type: 'reasoning-start', index: 0 },
        { type: 'reasoning-delta', index: 0, text: 'hmm' },
        { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQB' } },
        { type: 'text-start', index: 1 },
        { type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' },
        { type: 'text-delta', index: 1, text: 'Hi' },
        { type: 'tool-call-delta', index: 2, argumentsDelta: '{"a":' },
        { type: 'tool-call-delta', index: 2, argumentsDelta: '1}' },
        { type: 'text-end', index: 1 },
        { type: 'tool-call-end', index: 2 },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        { type: 'usage', usage },
      ],
      losses,
    );
    expect(text).toMatchInlineSnapshot(`
      "event: messageStart
      data: {"role":"assistant"}

      event: contentBlockDelta
      data: {"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"hmm"}}}

      event: contentBlockDelta
      data: {"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"EqQB"}}}

      event: contentBlockStop
      data: {"contentBlockIndex":0}

      event: contentBlockStart
      data: {"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"call_1","name":"f"}}}

      event: contentBlockDelta
      data: {"contentBlockIndex":2,"delta":{"text":"Hi"}}

      event: contentBlockDelta
      data: {"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\\"a\\":"}}}

      event: contentBlockDelta
      data: {"contentBlockIndex":1,"delta":{"toolUse":{"input":"1}"}}}

      event: contentBlockStop
      data: {"contentBlockIndex":2}

      event: contentBlockStop
      data: {"contentBlockIndex":1}

      event: messageStop
      data: {"stopReason":"tool_use"}

      event: metadata
      data: {"usage":{"inputTokens":30,"outputTokens":9,"totalTokens":59,"cacheReadInputTokens":20,"cacheWriteInputTokens":0},"metrics":{"latencyMs":0}}

      "
    `);
    expect(losses.losses).toEqual([]);
  });

  it('a finish without usage and no trailing usage: metadata at the end, with the relay’s input estimate', () => {
    const text = encodeEvents(
      [start, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } }],
      new LossLog(),
      321,
    );
    expect(text.split('\n\n').filter(Boolean).at(-1)).toBe(
      'event: metadata\ndata: {"usage":{"inputTokens":321,"outputTokens":0,"totalTokens":321,"cacheReadInputTokens":0,"cacheWriteInputTokens":0},"metrics":{"latencyMs":0}}',
    );
  });

  it('closes blocks left open at the finish, and opens with an empty delta a block that said nothing', () => {
    const text = encodeEvents([
      start,
      { type: 'text-start', index: 0 },
      { type: 'reasoning-start', index: 1 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ]);
    const events = decodeStreamText(text);
    expectStreamGrammar(events);
    expect(events.slice(1, -1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-end', index: 0 },
      { type: 'reasoning-start', index: 1 },
      { type: 'reasoning-end', index: 1 },
    ]);
  });

  it('writes Anthropic’s redacted reasoning as redactedContent and another vendor’s as a marked signature', () => {
    const events: StreamEvent[] = [
      start,
      { type: 'reasoning-start', index: 0, redactedData: { issuer: 'anthropic', value: 'RVVj' } },
      { type: 'reasoning-end', index: 0 },
      { type: 'reasoning-start', index: 1, redactedData: { issuer: 'openai', value: 'gAAAA' } },
      { type: 'reasoning-delta', index: 1, text: 'summary' },
      { type: 'reasoning-end', index: 1 },
      { type: 'reasoning-start', index: 2 },
      { type: 'reasoning-delta', index: 2, text: 'why' },
      { type: 'reasoning-end', index: 2, signature: { issuer: 'gemini', value: 'CqUB' } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ];
    const text = encodeEvents(events);
    expect(text).toContain('"delta":{"reasoningContent":{"redactedContent":"RVVj"}}');
    expect(text).toContain('"delta":{"reasoningContent":{"signature":"openai-redacted:gAAAA"}}');
    expect(text).toContain('"delta":{"reasoningContent":{"signature":"gemini:CqUB"}}');
    const decoded = stable(decodeStreamText(text));
    expect(decoded.slice(1, -1)).toEqual(stable(events).slice(1, -1));
  });

  it.each([
    [{ status: 429 }, 'throttlingException'],
    [{ status: 400 }, 'validationException'],
    [{ status: 529 }, 'serviceUnavailableException'],
    [{ status: 503 }, 'serviceUnavailableException'],
    [{ status: 424 }, 'modelStreamErrorException'],
    [{ status: 502 }, 'internalServerException'],
    [{ code: 'upstream_timeout' }, 'internalServerException'],
    [{ code: 'validationException', status: 500 }, 'validationException'],
  ])('an error %j is a %s frame', (error, name) => {
    const text = encodeEvents([start, { type: 'error', message: 'boom', ...error }]);
    expect(text).toBe(
      `event: messageStart\ndata: {"role":"assistant"}\n\nevent: ${name}\ndata: {"message":"boom"}\n\n`,
    );
  });

  it('records what a Converse stream cannot carry: a tool call’s signature, a whole file, a finish with no stop reason', () => {
    const losses = new LossLog();
    encodeEvents(
      [
        start,
        { type: 'tool-call-start', index: 0, id: 'a.b', name: 'f' },
        { type: 'tool-call-end', index: 0, signature: { issuer: 'gemini', value: 'CqUB' } },
        {
          type: 'file',
          index: 1,
          file: { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: 'iVBO' } },
        },
        { type: 'finish', finishReason: { unified: 'other', raw: undefined }, usage },
      ],
      losses,
    );
    expect(losses.losses.map((loss) => `${loss.kind} ${loss.path}`)).toEqual([
      'coerced stream[0].id',
      'dropped stream[0].signature',
      'dropped stream[1]',
      'coerced finish_reason',
    ]);
  });
});
