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
        signature: { issuer: 'anthropic', value: 'EqQBCkYIBxgCKkDFGVF3mK8oZ9n0A3ZdXnC1' },
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

  it('writes every vendor token where the client echoes it: own unmarked, others behind their issuer', () => {
    const losses = new LossLog();
    const message = codec.encodeReply(
      {
        ...reply,
        parts: [
          { type: 'reasoning', text: 'Mine.', signature: { issuer: 'anthropic', value: 'EqAnthropic' } },
          { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmRedacted' } },
          { type: 'reasoning', text: '', redactedData: { issuer: 'openai', value: 'gAAAAenc' } },
          { type: 'reasoning', text: 'Summary.', redactedData: { issuer: 'openai', value: 'gAAAAsum' } },
          {
            type: 'reasoning',
            text: 'Gemini thought.',
            signature: { issuer: 'gemini', value: 'CiQthought' },
          },
          {
            type: 'tool-call',
            id: 'fc_1',
            name: 'lookup',
            arguments: '{}',
            signature: { issuer: 'gemini', value: 'CiQcall' },
          },
          { type: 'tool-call', id: 'fc_2', name: 'lookup', arguments: '{}' },
        ],
      },
      losses,
    ) as { content: unknown[] };
    expect(message.content).toMatchInlineSnapshot(`
      [
        {
          "signature": "EqAnthropic",
          "thinking": "Mine.",
          "type": "thinking",
        },
        {
          "data": "EmRedacted",
          "type": "redacted_thinking",
        },
        {
          "data": "openai-redacted:gAAAAenc",
          "type": "redacted_thinking",
        },
        {
          "signature": "openai-redacted:gAAAAsum",
          "thinking": "Summary.",
          "type": "thinking",
        },
        {
          "signature": "gemini:CiQthought",
          "thinking": "Gemini thought.",
          "type": "thinking",
        },
        {
          "caller": {
            "type": "direct",
          },
          "id": "fc_1",
          "input": {},
          "name": "lookup",
          "type": "tool_use",
        },
        {
          "signature": "gemini:CiQcall",
          "thinking": "",
          "type": "thinking",
        },
        {
          "caller": {
            "type": "direct",
          },
          "id": "fc_2",
          "input": {},
          "name": "lookup",
          "type": "tool_use",
        },
      ]
    `);
    expect(losses.losses).toEqual([]);

    // The client echoes the message back: each token returns with its issuer, the call's to the call.
    const echoed = codec.decodeRequest(
      {
        model: 'm',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: message.content },
        ],
      },
      { losses: new LossLog() },
    );
    expect(echoed.messages[1]?.parts).toEqual([
      { type: 'reasoning', text: 'Mine.', signature: { issuer: 'anthropic', value: 'EqAnthropic' } },
      { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmRedacted' } },
      { type: 'reasoning', text: '', redactedData: { issuer: 'openai', value: 'gAAAAenc' } },
      { type: 'reasoning', text: 'Summary.', redactedData: { issuer: 'openai', value: 'gAAAAsum' } },
      { type: 'reasoning', text: 'Gemini thought.', signature: { issuer: 'gemini', value: 'CiQthought' } },
      {
        type: 'tool-call',
        id: 'fc_1',
        name: 'lookup',
        arguments: '{}',
        signature: { issuer: 'gemini', value: 'CiQcall' },
      },
      { type: 'tool-call', id: 'fc_2', name: 'lookup', arguments: '{}' },
    ]);
  });

  it('keeps an empty Gemini-signed thinking block as reasoning when no tool call comes before it', () => {
    const decoded = codec.decodeRequest(
      {
        model: 'm',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: '', signature: 'gemini:CiQalone' },
              { type: 'text', text: 'Hello' },
            ],
          },
        ],
      },
      { losses: new LossLog() },
    );
    expect(decoded.messages[1]?.parts[0]).toEqual({
      type: 'reasoning',
      text: '',
      signature: { issuer: 'gemini', value: 'CiQalone' },
    });
  });

  it('maps a refusal to content-filter and back', () => {
    const decoded = codec.decodeReply(
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude',
        content: [],
        stop_reason: 'refusal',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 0 },
      },
      new LossLog(),
    );
    expect(decoded.finishReason).toEqual({ unified: 'content-filter', raw: 'refusal' });
    const losses = new LossLog();
    const encoded = codec.encodeReply(
      { ...reply, parts: [], finishReason: { unified: 'content-filter', raw: 'content_filter' } },
      losses,
    ) as { stop_reason: string };
    expect(encoded.stop_reason).toBe('refusal');
    expect(losses.losses).toEqual([]);
  });
});
