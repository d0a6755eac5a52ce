import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { encodeReply } from '../../../src/protocols/bedrock-converse/encode-reply.js';
import { codec, fixtureJson } from './helpers.js';

describe('bedrock converse reply decoder', () => {
  it('reply-tool-use.json: signed reasoning, text, tool use; input counts cache reads and writes', () => {
    const losses = new LossLog();
    const reply = codec.decodeReply(fixtureJson('reply-tool-use.json'), losses);
    expect(losses.losses).toEqual([]);
    expect({ ...reply, created: 0 }).toMatchInlineSnapshot(`
      {
        "created": 0,
        "extensions": {
          "bedrock-converse": {
            "body": {
              "metrics": {
                "latencyMs": 1830,
              },
            },
          },
        },
        "finishReason": {
          "raw": "tool_use",
          "unified": "tool-calls",
        },
        "id": "converse-e5dfb19fb5ff62fe21bc7d74",
        "model": "",
        "parts": [
          {
            "signature": {
              "issuer": "anthropic",
              "value": "EqQBCkgIBhABGAIiQNc0aWduYXR1cmUtb2YtdGhlLXNlY29uZC10dXJu",
            },
            "text": "Kyoto is 18°C and clear; the user also wants Osaka, so I call the tool again.",
            "type": "reasoning",
          },
          {
            "text": "Kyoto is 18 °C and clear. Checking Osaka now.",
            "type": "text",
          },
          {
            "arguments": "{"city":"Osaka"}",
            "id": "tooluse_3fQ8bR1xS2u7cXn0oPz9Lw",
            "name": "get_weather",
            "type": "tool-call",
          },
        ],
        "usage": {
          "cacheReadTokens": 2048,
          "cacheWrite1hTokens": 1024,
          "cacheWriteTokens": 1024,
          "estimated": false,
          "inputTokens": 3184,
          "outputTokens": 87,
          "raw": {
            "cacheDetails": [
              {
                "inputTokens": 1024,
                "ttl": "1h",
              },
            ],
            "cacheReadInputTokens": 2048,
            "cacheWriteInputTokens": 1024,
            "inputTokens": 112,
            "outputTokens": 87,
            "totalTokens": 3271,
          },
          "reasoningTokens": 0,
          "webSearchCalls": 0,
        },
      }
    `);
  });

  it('reply-guardrail.json: redacted reasoning, cited text and guard content kept for this protocol', () => {
    const reply = codec.decodeReply(fixtureJson('reply-guardrail.json'), new LossLog());
    expect(reply.parts).toMatchInlineSnapshot(`
      [
        {
          "redactedData": {
            "issuer": "anthropic",
            "value": "RVVjQkNrZ0lCaEFCR0FJaVFCeW1VZGFjdGVk",
          },
          "text": "",
          "type": "reasoning",
        },
        {
          "extensions": {
            "bedrock-converse": {
              "citations": [
                {
                  "location": {
                    "documentPage": {
                      "documentIndex": 0,
                      "end": 1,
                      "start": 1,
                    },
                  },
                  "sourceContent": [
                    {
                      "text": "Day 1: Fushimi Inari at 7am",
                    },
                  ],
                  "title": "Itinerary (day 1)",
                },
              ],
            },
          },
          "text": "The itinerary starts at Fushimi Inari.",
          "type": "text",
        },
        {
          "text": "Sorry, the model cannot answer this.",
          "type": "text",
        },
        {
          "protocol": "bedrock-converse",
          "type": "raw",
          "value": {
            "guardContent": {
              "text": {
                "text": "blocked span",
              },
            },
          },
        },
      ]
    `);
    expect(reply.finishReason).toEqual({ unified: 'content-filter', raw: 'guardrail_intervened' });
    expect(reply.extensions).toEqual({
      'bedrock-converse': {
        body: {
          metrics: { latencyMs: 402 },
          trace: { guardrail: { actionReason: 'Guardrail blocked.' } },
          performanceConfig: { latency: 'standard' },
        },
      },
    });
  });

  it('names the reply by its body, Converse naming none: the same body, the same id', () => {
    const first = codec.decodeReply(fixtureJson('reply-tool-use.json'), new LossLog());
    expect(codec.decodeReply(fixtureJson('reply-tool-use.json'), new LossLog()).id).toBe(first.id);
    expect(codec.decodeReply(fixtureJson('reply-guardrail.json'), new LossLog()).id).not.toBe(first.id);
  });

  it('reads a body of the wrong shape as an empty reply with unknown usage, never as a failure', () => {
    const reply = codec.decodeReply(
      { output: 'x', stopReason: 7, usage: { inputTokens: 'many' } },
      new LossLog(),
    );
    expect(reply.parts).toEqual([]);
    expect(reply.finishReason).toEqual({ unified: 'other', raw: undefined });
    expect(reply.usage.inputTokens).toBeUndefined();
    expect(reply.usage.outputTokens).toBeUndefined();
  });

  it('keeps a block missing what it requires raw instead of failing', () => {
    const reply = codec.decodeReply(
      {
        output: {
          message: {
            role: 'assistant',
            content: [{ toolUse: { name: 'f' } }, { image: { format: 'tiff' } }],
          },
        },
      },
      new LossLog(),
    );
    expect(reply.parts.map((part) => part.type)).toEqual(['raw', 'raw']);
  });
});

describe('bedrock converse reply encoder', () => {
  const reply: CanonicalReply = {
    id: 'chatcmpl-1',
    model: 'gpt-5',
    created: 1,
    parts: [
      { type: 'reasoning', text: 'hidden', redactedData: { issuer: 'openai', value: 'gAAAA' } },
      { type: 'reasoning', text: 'why', signature: { issuer: 'gemini', value: 'CqUB' } },
      { type: 'text', text: 'Calling.' },
      {
        type: 'tool-call',
        id: 'call.1',
        name: 'f',
        arguments: '{"a":1}',
        signature: { issuer: 'gemini', value: 'CqUB' },
      },
      { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: 'iVBORw0KGgo=' } },
      { type: 'raw', protocol: 'openai-chat', value: {} },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: {
      ...emptyUsage(),
      inputTokens: 100,
      cacheReadTokens: 60,
      cacheWriteTokens: 10,
      cacheWrite5mTokens: 10,
      outputTokens: 7,
    },
    extensions: {},
  };

  it('writes another vendor’s tokens behind their issuer’s marker, and records what has no place', () => {
    const losses = new LossLog();
    expect(codec.encodeReply(reply, losses)).toMatchInlineSnapshot(`
      {
        "metrics": {
          "latencyMs": 0,
        },
        "output": {
          "message": {
            "content": [
              {
                "reasoningContent": {
                  "reasoningText": {
                    "signature": "openai-redacted:gAAAA",
                    "text": "hidden",
                  },
                },
              },
              {
                "reasoningContent": {
                  "reasoningText": {
                    "signature": "gemini:CqUB",
                    "text": "why",
                  },
                },
              },
              {
                "text": "Calling.",
              },
              {
                "toolUse": {
                  "input": {
                    "a": 1,
                  },
                  "name": "f",
                  "toolUseId": "call_1",
                },
              },
              {
                "image": {
                  "format": "png",
                  "source": {
                    "bytes": "iVBORw0KGgo=",
                  },
                },
              },
            ],
            "role": "assistant",
          },
        },
        "stopReason": "tool_use",
        "usage": {
          "cacheDetails": [
            {
              "inputTokens": 10,
              "ttl": "5m",
            },
          ],
          "cacheReadInputTokens": 60,
          "cacheWriteInputTokens": 10,
          "inputTokens": 30,
          "outputTokens": 7,
          "totalTokens": 107,
        },
      }
    `);
    expect(losses.losses.map((loss) => `${loss.kind} ${loss.path}`)).toEqual([
      'coerced parts[3].id',
      'dropped parts[3].signature',
      'dropped parts[5]',
    ]);
  });

  it('reads its own output back: the marked tokens return to their issuers', () => {
    const again = codec.decodeReply(codec.encodeReply(reply, new LossLog()), new LossLog());
    expect(again.parts.slice(0, 2)).toEqual(reply.parts.slice(0, 2));
    expect(again.usage).toMatchObject({
      inputTokens: 100,
      cacheReadTokens: 60,
      cacheWriteTokens: 10,
      cacheWrite5mTokens: 10,
      outputTokens: 7,
    });
  });

  it('a finish with no Converse stop reason is end_turn, recorded', () => {
    const losses = new LossLog();
    const body = encodeReply(
      { ...reply, parts: [], finishReason: { unified: 'other', raw: 'pause_turn' } },
      losses,
    );
    expect(body.stopReason).toBe('end_turn');
    expect(losses.losses).toEqual([
      {
        kind: 'coerced',
        path: 'finish_reason',
        reason: 'finish reason pause_turn has no Converse stopReason: end_turn',
      },
    ]);
  });
});
