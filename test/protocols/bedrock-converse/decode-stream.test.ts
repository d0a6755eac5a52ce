import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { codec, decodeStreamText, expectStreamGrammar, fixtureText, stable } from './helpers.js';

describe('bedrock converse stream decoder', () => {
  it('stream-thinking-tool.txt: reasoning then its signature, text, a tool call; the finish waits for metadata', () => {
    const losses = new LossLog();
    const events = decodeStreamText(fixtureText('stream-thinking-tool.txt'), { losses });
    expectStreamGrammar(events);
    expect(losses.losses).toEqual([]);
    expect(stable(events)).toMatchInlineSnapshot(`
      [
        {
          "created": 0,
          "id": "converse-stream",
          "model": "",
          "type": "response-start",
        },
        {
          "index": 0,
          "type": "reasoning-start",
        },
        {
          "index": 0,
          "text": "Kyoto in autumn: ",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "text": "maples — 紅葉 🍁.",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "signature": {
            "issuer": "anthropic",
            "value": "EqQBCkgIBhABGAIiQNc0aWduYXR1cmUtc3RyZWFtZWQ=",
          },
          "type": "reasoning-end",
        },
        {
          "index": 1,
          "type": "text-start",
        },
        {
          "index": 1,
          "text": "Late November is best ",
          "type": "text-delta",
        },
        {
          "index": 1,
          "text": "for 紅葉. Let me check the weather.",
          "type": "text-delta",
        },
        {
          "index": 1,
          "type": "text-end",
        },
        {
          "id": "tooluse_Qm8b2Vx1RkqP3nT0aLz7wA",
          "index": 2,
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city": "Ky",
          "index": 2,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": "oto"}",
          "index": 2,
          "type": "tool-call-delta",
        },
        {
          "index": 2,
          "type": "tool-call-end",
        },
        {
          "finishReason": {
            "raw": "tool_use",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "cacheReadTokens": 1536,
            "cacheWriteTokens": 0,
            "estimated": false,
            "inputTokens": 1750,
            "outputTokens": 96,
            "raw": {
              "cacheReadInputTokens": 1536,
              "cacheWriteInputTokens": 0,
              "inputTokens": 214,
              "outputTokens": 96,
              "totalTokens": 1846,
            },
            "reasoningTokens": 0,
            "webSearchCalls": 0,
          },
        },
      ]
    `);
  });

  it('stream-throttled.txt: an exception mid-stream ends it with an error of status 429, no finish', () => {
    const events = decodeStreamText(fixtureText('stream-throttled.txt'));
    expectStreamGrammar(events);
    expect(events.slice(1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Partial ans' },
      {
        type: 'error',
        message: 'Too many tokens, please wait before trying again.',
        code: 'throttlingException',
        status: 429,
      },
    ]);
  });

  it.each([
    ['internalServerException', 500],
    ['modelStreamErrorException', 424],
    ['validationException', 400],
    ['throttlingException', 429],
    ['serviceUnavailableException', 503],
  ])('%s stands for HTTP %i', (name, status) => {
    const decoder = codec.createStreamDecoder(new LossLog());
    decoder.push({ event: 'messageStart', data: '{"role":"assistant"}' });
    const events = [...decoder.push({ event: name, data: '{"message":"boom"}' }), ...decoder.end()];
    expect(events).toEqual([{ type: 'error', message: 'boom', code: name, status }]);
    expect(decoder.push({ event: 'messageStop', data: '{"stopReason":"end_turn"}' })).toEqual([]);
  });

  it('reads an exception named as its error shape, and any other *Exception (an error frame’s code) without a status', () => {
    const shape = codec.createStreamDecoder(new LossLog());
    expect(shape.push({ event: 'ServiceUnavailableException', data: '{"Message":"busy"}' })).toEqual([
      { type: 'error', message: 'busy', code: 'serviceUnavailableException', status: 503 },
    ]);
    const other = codec.createStreamDecoder(new LossLog());
    expect(other.push({ event: 'ModelTimeoutException', data: 'not json' })).toEqual([
      { type: 'error', message: 'ModelTimeoutException', code: 'ModelTimeoutException' },
    ]);
  });

  it('stream-redacted-cut-off.txt: redacted reasoning opens its block; a cut stream closes blocks and finishes as other', () => {
    const events = decodeStreamText(fixtureText('stream-redacted-cut-off.txt'));
    expectStreamGrammar(events);
    expect(stable(events)).toEqual([
      { type: 'response-start', id: 'converse-stream', model: '', created: 0 },
      {
        type: 'reasoning-start',
        index: 0,
        redactedData: { issuer: 'anthropic', value: 'RVVjQkNrZ0lCaEFCR0FJaVFCeW1VZGFjdGVk' },
      },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Here is what I can say: ' },
      { type: 'text-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'other', raw: undefined } },
    ]);
  });

  it('a stream that ends after messageStop without metadata finishes with its stop reason and no usage', () => {
    const text = fixtureText('stream-thinking-tool.txt');
    const events = decodeStreamText(text.slice(0, text.indexOf('event: metadata')));
    expectStreamGrammar(events);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    });
  });

  it.each(['stream-thinking-tool.txt', 'stream-throttled.txt', 'stream-redacted-cut-off.txt'])(
    '%s: every split point, mid UTF-8 character and mid line included, gives the same events',
    (name) => {
      const text = fixtureText(name);
      const bytes = new TextEncoder().encode(text);
      const whole = stable(decodeStreamText(text));
      let midCharacter = 0;
      for (let cut = 1; cut < bytes.length; cut += 1) {
        if (((bytes[cut] ?? 0) & 0xc0) === 0x80) midCharacter += 1;
        expect(stable(decodeStreamText(text, { cuts: [cut] }))).toEqual(whole);
      }
      if (name === 'stream-thinking-tool.txt') expect(midCharacter).toBeGreaterThan(0);
      const everyByte = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
      expect(stable(decodeStreamText(text, { cuts: everyByte }))).toEqual(whole);
    },
  );

  it('records blocks with no canonical stream event and reads on', () => {
    const losses = new LossLog();
    const decoder = codec.createStreamDecoder(losses);
    const events = [
      ...decoder.push({ event: 'messageStart', data: '{"role":"assistant"}' }),
      ...decoder.push({
        event: 'contentBlockStart',
        data: '{"contentBlockIndex":0,"start":{"toolResult":{"toolUseId":"s1","status":"success"}}}',
      }),
      ...decoder.push({
        event: 'contentBlockDelta',
        data: '{"contentBlockIndex":0,"delta":{"toolResult":[{"text":"x"}]}}',
      }),
      ...decoder.push({ event: 'contentBlockStop', data: '{"contentBlockIndex":0}' }),
      ...decoder.push({
        event: 'contentBlockDelta',
        data: '{"contentBlockIndex":1,"delta":{"citation":{"title":"t"}}}',
      }),
      ...decoder.push({ event: 'contentBlockDelta', data: '{"contentBlockIndex":2,"delta":{"text":"ok"}}' }),
      ...decoder.push({
        event: 'contentBlockDelta',
        data: '{"contentBlockIndex":2,"delta":{"toolUse":{"input":"{}"}}}',
      }),
      ...decoder.push({ event: 'somethingNew', data: '{"x":1}' }),
      ...decoder.push({ event: 'messageStop', data: '{"stopReason":"end_turn"}' }),
      ...decoder.push({
        event: 'metadata',
        data: '{"usage":{"inputTokens":3,"outputTokens":1,"totalTokens":4}}',
      }),
    ];
    expectStreamGrammar(events);
    expect(events.map((event) => event.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(losses.losses.map((loss) => loss.path)).toEqual(['content[0]', 'content[1]', 'content[2].delta']);
    expect(decoder.broken()).toBeUndefined();
  });

  it('names each stream itself, Converse naming none', () => {
    const ids = [1, 2].map(() => {
      const [start] = codec
        .createStreamDecoder(new LossLog())
        .push({ event: 'messageStart', data: '{"role":"assistant"}' });
      return start?.type === 'response-start' ? start.id : undefined;
    });
    expect(ids[0]).toMatch(/^converse-[0-9a-f]{24}$/);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('an event that is not a JSON object breaks the stream: nothing after it, no finish', () => {
    const decoder = codec.createStreamDecoder(new LossLog());
    const events = [
      ...decoder.push({ event: 'contentBlockDelta', data: '{"contentBlockIndex":0,"delta":{"text":"Hi"}}' }),
      ...decoder.push({ event: 'contentBlockDelta', data: '{"contentBlockIndex":0,' }),
      ...decoder.push({ event: 'messageStop', data: '{"stopReason":"end_turn"}' }),
      ...decoder.end(),
    ];
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-start', 'text-delta']);
    expect(decoder.broken()).toBe('an event whose data is not a JSON object: "{\\"contentBlockIndex\\":0,"');
  });
});
