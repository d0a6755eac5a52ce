import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { mapAnthropicFinishReason } from '../../../src/protocols/anthropic-messages/map-anthropic-finish-reason.js';
import { readJsonFixture } from './helpers.js';

describe('decodeReply', () => {
  it('reads thinking, text, parallel tool calls, the stop reason and usage with cache writes by TTL', () => {
    const losses = new LossLog();
    const reply = codec.decodeReply(readJsonFixture('reply-tool-use.json'), losses);
    expect(reply.id).toBe('msg_01XFDUDYJgAACzvnptvVoYEL');
    expect(reply.model).toBe('claude-sonnet-4-5-20250929');
    expect(reply.created).toBeTypeOf('number');
    expect(reply.parts).toEqual([
      {
        type: 'reasoning',
        text: 'The user wants the weather in two cities; call the tool twice.',
        signature: 'EqQBCkYIBxgCKkDFGVF3mK8oZ9n0A3ZdXnC1',
      },
      { type: 'text', text: 'Let me check both cities.' },
      {
        type: 'tool-call',
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        arguments: '{"city":"Paris","unit":"celsius"}',
      },
      {
        type: 'tool-call',
        id: 'toolu_01U2y2gK45rBnl3uOUsO8Vq7',
        name: 'get_weather',
        arguments: '{"city":"Zürich"}',
      },
    ]);
    expect(reply.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    expect(reply.usage).toEqual({
      inputTokens: 120 + 4096 + 2048,
      cacheReadTokens: 4096,
      cacheWriteTokens: 2048,
      cacheWrite5mTokens: 1024,
      cacheWrite1hTokens: 1024,
      outputTokens: 210,
      reasoningTokens: 64,
      webSearchCalls: 0,
      estimated: false,
      raw: readJsonFixture('reply-tool-use.json').usage,
    });
    expect(reply.extensions).toEqual({});
    expect(losses.losses).toEqual([]);
  });

  it('keeps server tool blocks raw, citations on the text, and counts web searches', () => {
    const reply = codec.decodeReply(readJsonFixture('reply-web-search.json'), new LossLog());
    expect(reply.parts.map((part) => part.type)).toEqual(['text', 'raw', 'raw', 'text']);
    expect(reply.parts[3]).toMatchObject({
      extensions: {
        'anthropic-messages': {
          citations: [{ cited_text: 'Claude Elwood Shannon (April 30, 1916 – February 24, 2001)' }],
        },
      },
    });
    expect(reply.usage).toMatchObject({ inputTokens: 6039, outputTokens: 931, webSearchCalls: 1 });
    expect(reply.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
  });

  it('is lenient with what an upstream sends', () => {
    const reply = codec.decodeReply(undefined, new LossLog());
    expect(reply).toMatchObject({ id: '', parts: [], finishReason: { unified: 'other', raw: undefined } });
    expect(reply.usage).toMatchObject({ inputTokens: undefined, outputTokens: undefined });
    const broken = codec.decodeReply(
      {
        content: [{ type: 'thinking' }, 'text', { type: 'container_upload', file_id: 'f' }],
        stop_reason: 'stop_sequence',
        stop_sequence: 'END',
      },
      new LossLog(),
    );
    expect(broken.parts).toEqual([
      { type: 'raw', protocol: 'anthropic-messages', value: { type: 'thinking' } },
      { type: 'raw', protocol: 'anthropic-messages', value: 'text' },
      { type: 'raw', protocol: 'anthropic-messages', value: { type: 'container_upload', file_id: 'f' } },
    ]);
    expect(broken.extensions).toEqual({ 'anthropic-messages': { stop_sequence: 'END' } });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['pause_turn', 'other'],
    ['something_new', 'other'],
  ])('maps stop_reason %s to %s', (raw, unified) => {
    expect(mapAnthropicFinishReason(raw)).toEqual({ unified, raw });
  });
});

describe('encodeReply', () => {
  const reply: CanonicalReply = {
    id: 'chatcmpl-Bx7Yz',
    model: 'gpt-5-mini',
    created: 1_760_000_000,
    parts: [
      { type: 'reasoning', text: 'Thinking it over.' },
      { type: 'text', text: 'Here you go.' },
      { type: 'tool-call', id: 'call_Q1', name: 'lookup', arguments: '{"q":"gateway"}' },
      { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: 'iVBOR' } },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: { ...emptyUsage(), inputTokens: 100, cacheReadTokens: 20, outputTokens: 30, reasoningTokens: 10 },
    extensions: {},
  };

  it('writes an Anthropic Message for a reply of another vendor, recording the missing signature', () => {
    const losses = new LossLog();
    expect(codec.encodeReply(reply, losses)).toMatchInlineSnapshot(`
      {
        "container": null,
        "content": [
          {
            "signature": "",
            "thinking": "Thinking it over.",
            "type": "thinking",
          },
          {
            "citations": null,
            "text": "Here you go.",
            "type": "text",
          },
          {
            "caller": {
              "type": "direct",
            },
            "id": "call_Q1",
            "input": {
              "q": "gateway",
            },
            "name": "lookup",
            "type": "tool_use",
          },
        ],
        "id": "msg_chatcmpl-Bx7Yz",
        "model": "gpt-5-mini",
        "role": "assistant",
        "stop_details": null,
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "type": "message",
        "usage": {
          "cache_creation_input_tokens": 0,
          "cache_read_input_tokens": 20,
          "input_tokens": 80,
          "output_tokens": 30,
          "output_tokens_details": {
            "thinking_tokens": 10,
          },
        },
      }
    `);
    expect(losses.losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "parts[0].signature",
          "reason": "thinking from this model has no Anthropic signature",
        },
        {
          "kind": "dropped",
          "path": "parts[3]",
          "reason": "no Anthropic reply block for file",
        },
      ]
    `);
  });

  it('maps finish reasons back, recording those Anthropic has no value for', () => {
    const stopReason = (finishReason: CanonicalReply['finishReason']) => {
      const losses = new LossLog();
      const message = codec.encodeReply({ ...reply, parts: [], finishReason }, losses) as {
        stop_reason: string;
      };
      return [message.stop_reason, losses.losses.length];
    };
    expect(stopReason({ unified: 'stop', raw: 'stop' })).toEqual(['end_turn', 0]);
    expect(stopReason({ unified: 'length', raw: 'MAX_TOKENS' })).toEqual(['max_tokens', 0]);
    expect(stopReason({ unified: 'content-filter', raw: 'SAFETY' })).toEqual(['refusal', 0]);
    expect(stopReason({ unified: 'other', raw: 'pause_turn' })).toEqual(['pause_turn', 0]);
    expect(stopReason({ unified: 'error', raw: 'failed' })).toEqual(['end_turn', 1]);
    expect(stopReason({ unified: 'other', raw: 'function_call' })).toEqual(['end_turn', 1]);
  });

  it('returns reasoning with only encrypted data as redacted thinking', () => {
    const message = codec.encodeReply(
      { ...reply, parts: [{ type: 'reasoning', text: '', redactedData: 'enc_123' }] },
      new LossLog(),
    ) as { content: unknown[] };
    expect(message.content).toEqual([{ type: 'redacted_thinking', data: 'enc_123' }]);
  });
});
