import { describe, expect, test } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { openaiResponsesReply } from '../../fakes/openai-responses-reply.js';
import { defaultFakeUsage } from '../../fakes/fake-upstream.js';
import { withOpenAIClient } from './local-server.js';
import { fixtureJson } from './sse-helpers.js';

const decode = (body: unknown, losses = new LossLog()) => codec.decodeReply(body, losses);

describe('decodeReply: recorded replies, field by field', () => {
  test('reasoning (two summary parts, encrypted content) and two parallel function calls', () => {
    const losses = new LossLog();
    const reply = decode(fixtureJson('reply-reasoning-tools.json'), losses);
    expect(reply.id).toBe('resp_68d9303e0ef4819e9abaed38fac5de4f03aa6e5a972b3b23');
    expect(reply.model).toBe('gpt-5-2025-08-07');
    expect(reply.created).toBe(1759064126);
    expect(reply.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(reply.parts).toEqual([
      {
        type: 'reasoning',
        text: '**Checking the weather**\n\nThe user wants Paris and Tōkyō.\n\n**Calling tools in parallel**',
        signature: { issuer: 'openai', value: 'gAAAAABo2TA_done-blob==' },
        extensions: {
          'openai-responses': {
            id: 'rs_68d9303e94ac819ead3d9e066f405eae03aa6e5a972b3b23',
            summary: [
              { type: 'summary_text', text: '**Checking the weather**\n\nThe user wants Paris and Tōkyō.' },
              { type: 'summary_text', text: '**Calling tools in parallel**' },
            ],
          },
        },
      },
      {
        type: 'tool-call',
        id: 'call_5dp5Uj0Loqn1YcyIpqSq6sLX',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      {
        type: 'tool-call',
        id: 'call_Xq2nR8vLk1PzTq0a9dE3fGhJ',
        name: 'get_weather',
        arguments: '{"city":"Tōkyō"}',
      },
    ]);
    expect(reply.usage).toEqual({
      inputTokens: 75,
      cacheReadTokens: 64,
      cacheWriteTokens: 0,
      outputTokens: 155,
      reasoningTokens: 128,
      webSearchCalls: 0,
      estimated: false,
      raw: fixtureJson('reply-reasoning-tools.json').usage,
    });
    expect(reply.extensions['openai-responses']).toMatchObject({
      service_tier: 'auto',
      store: false,
      tools: expect.any(Array),
    });
    expect(losses.losses).toEqual([]);
  });

  test('a web search call (raw, counted) and text with citations', () => {
    const reply = decode(fixtureJson('reply-web-search.json'));
    expect(reply.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
    expect(reply.usage).toMatchObject({
      inputTokens: 328,
      cacheReadTokens: 128,
      outputTokens: 356,
      webSearchCalls: 1,
    });
    expect(reply.parts).toEqual([
      {
        type: 'raw',
        protocol: 'openai-responses',
        value: {
          item: {
            type: 'web_search_call',
            id: 'ws_67ccd3acc8548190a6bc2d4d2fe5ca3c04becb25c45c1d41',
            status: 'completed',
            action: { type: 'search', query: 'positive news today' },
          },
        },
      },
      {
        type: 'text',
        text: 'As of today, March 9, 2025, one notable positive news story is about a rescued sea turtle.',
        extensions: {
          'openai-responses': {
            item: { id: 'msg_67ccd3acc8548190a6bc2d4d2fe5ca3c04becb25c45c1d42' },
            annotations: [
              {
                type: 'url_citation',
                start_index: 42,
                end_index: 90,
                url: 'https://example.com/turtle',
                title: 'Sea turtle rescued',
              },
            ],
          },
        },
      },
    ]);
  });

  test('incomplete for max_output_tokens is a length finish', () => {
    const reply = decode(fixtureJson('reply-incomplete.json'));
    expect(reply.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
    expect(reply.parts).toMatchObject([{ type: 'text', text: 'Once upon a time, in a' }]);
  });

  test.each([
    [
      { status: 'incomplete', incomplete_details: { reason: 'content_filter' } },
      { unified: 'content-filter', raw: 'content_filter' },
    ],
    [
      { status: 'failed', error: { code: 'server_error', message: 'x' } },
      { unified: 'error', raw: 'failed' },
    ],
    [{ status: 'cancelled' }, { unified: 'other', raw: 'cancelled' }],
    [{}, { unified: 'other', raw: undefined }],
  ])('finish reason of %j', (fields, finishReason) => {
    expect(decode({ id: 'resp_1', output: [], ...fields }).finishReason).toEqual(finishReason);
  });

  test('the fake upstream reply (its recorded shape) decodes', () => {
    const fake = openaiResponsesReply(
      {
        method: 'POST',
        url: '/v1/responses',
        path: '/v1/responses',
        query: new URLSearchParams(),
        headers: {},
        body: { model: 'gpt-4o', reasoning: { summary: 'auto' } },
      },
      {
        text: 'Hello.',
        thinking: 'Hmm.',
        usage: defaultFakeUsage,
        toolCall: false,
        toolArguments: '{}',
        toolCallCount: 1,
        interleaveToolCalls: false,
        refusal: false,
        omitUsage: false,
      },
      (prefix) => `${prefix}fake1`,
    );
    expect(fake.kind).toBe('json');
    const reply = decode(fake.kind === 'json' ? fake.body : undefined);
    expect(reply.parts.map((part) => [part.type, 'text' in part ? part.text : ''])).toEqual([
      ['reasoning', 'Hmm.'],
      ['text', 'Hello.'],
    ]);
    expect(reply.usage).toMatchObject({
      inputTokens: 20,
      cacheReadTokens: 8,
      outputTokens: 12,
      reasoningTokens: 5,
    });
  });

  test('lenient upstream: unknown fields ignored, malformed content dropped with a loss, non-objects rejected', () => {
    const losses = new LossLog();
    const reply = decode(
      {
        id: 'resp_1',
        status: 'completed',
        future_field: 1,
        output: [7, { type: 'message', content: [{ type: 'output_text' }] }],
      },
      losses,
    );
    expect(reply.parts).toEqual([]);
    expect(reply.usage.inputTokens).toBeUndefined();
    expect(losses.losses.map((loss) => loss.path)).toEqual(['output[0]', 'output[1].content[0]']);
    expect(() => decode(undefined)).toThrow(GatewayError);
    expect(() => decode({ error: { message: 'x' } })).toThrow('not a Responses response object');
  });

  test('round trip: decode(encode(decode(x))) equals decode(x)', () => {
    for (const name of ['reply-reasoning-tools.json', 'reply-web-search.json', 'reply-incomplete.json']) {
      const reply = decode(fixtureJson(name));
      expect(decode(codec.encodeReply(reply, new LossLog())), name).toEqual(reply);
    }
  });
});

/** A reply as another protocol's decoder (Anthropic here) would give it. */
const anthropicReply: CanonicalReply = {
  id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
  model: 'claude-sonnet-4',
  created: 1_700_000_000,
  parts: [
    {
      type: 'reasoning',
      text: 'The user greets me.',
      signature: { issuer: 'anthropic', value: 'EqQBCkYIBxgCKkDs' },
    },
    { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgBEgy3va3pzix' } },
    { type: 'text', text: 'Hello! ' },
    { type: 'text', text: 'Checking the weather.' },
    { type: 'tool-call', id: 'toolu_01A', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'tool-call', id: 'toolu_01B', name: 'get_weather', arguments: '{"city":"Lyon"}' },
    { type: 'raw', protocol: 'anthropic-messages', value: { type: 'server_tool_use' } },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: {
    inputTokens: 120,
    cacheReadTokens: 100,
    cacheWriteTokens: 10,
    outputTokens: 40,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
  },
  extensions: {},
};

describe('encodeReply', () => {
  test('the response object of client-api 2.3', () => {
    const losses = new LossLog();
    expect(codec.encodeReply(anthropicReply, losses)).toMatchInlineSnapshot(`
      {
        "background": false,
        "created_at": 1700000000,
        "error": null,
        "id": "resp_516764b7aa7aea5acf4373ac8e6e36225788cd4453638604",
        "incomplete_details": null,
        "instructions": null,
        "max_output_tokens": null,
        "metadata": {},
        "model": "claude-sonnet-4",
        "object": "response",
        "output": [
          {
            "encrypted_content": "anthropic:EqQBCkYIBxgCKkDs",
            "id": "rs_fee9291f13f08a87a2ab68b72c833f71603d30a426ac0fe7",
            "summary": [
              {
                "text": "The user greets me.",
                "type": "summary_text",
              },
            ],
            "type": "reasoning",
          },
          {
            "encrypted_content": "anthropic-redacted:EmwKAhgBEgy3va3pzix",
            "id": "rs_d505850dfac390a50a9c1a7923a5eb6a61447bea6428bcb4",
            "summary": [],
            "type": "reasoning",
          },
          {
            "content": [
              {
                "annotations": [],
                "logprobs": [],
                "text": "Hello! ",
                "type": "output_text",
              },
              {
                "annotations": [],
                "logprobs": [],
                "text": "Checking the weather.",
                "type": "output_text",
              },
            ],
            "id": "msg_f41519bdf6228546e927cd5ee9c7882e236809008e70e907",
            "role": "assistant",
            "status": "completed",
            "type": "message",
          },
          {
            "arguments": "{"city":"Paris"}",
            "call_id": "toolu_01A",
            "id": "fc_3f7758c4cf13a75e2a7fd5f8a97feb2a856a1d70d5e6fe47",
            "name": "get_weather",
            "status": "completed",
            "type": "function_call",
          },
          {
            "arguments": "{"city":"Lyon"}",
            "call_id": "toolu_01B",
            "id": "fc_17a0eb908d157f892d98fe90ab935a65442db6a4a59216ad",
            "name": "get_weather",
            "status": "completed",
            "type": "function_call",
          },
        ],
        "parallel_tool_calls": true,
        "previous_response_id": null,
        "reasoning": {
          "effort": null,
          "summary": null,
        },
        "status": "completed",
        "temperature": null,
        "text": {
          "format": {
            "type": "text",
          },
        },
        "tool_choice": "auto",
        "tools": [],
        "top_p": null,
        "truncation": "disabled",
        "usage": {
          "input_tokens": 120,
          "input_tokens_details": {
            "cache_write_tokens": 10,
            "cached_tokens": 100,
          },
          "output_tokens": 40,
          "output_tokens_details": {
            "reasoning_tokens": 0,
          },
          "total_tokens": 160,
        },
      }
    `);
    expect(losses.losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "parts[6]",
          "reason": "a raw anthropic-messages block has no Responses form",
        },
      ]
    `);
  });

  test('length and content filter finishes are incomplete responses; unknown usage is coerced with a loss', () => {
    const losses = new LossLog();
    const base = { ...anthropicReply, parts: [{ type: 'text' as const, text: 'cut' }] };
    expect(
      codec.encodeReply({ ...base, finishReason: { unified: 'length', raw: 'max_tokens' } }, losses),
    ).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(
      codec.encodeReply({ ...base, finishReason: { unified: 'content-filter', raw: 'SAFETY' } }, losses),
    ).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
    });
    expect(losses.losses).toEqual([]);
    const unknown = { ...base.usage, inputTokens: undefined, outputTokens: undefined };
    expect(codec.encodeReply({ ...base, usage: unknown }, losses)).toMatchObject({
      usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    });
    expect(losses.losses.map((loss) => [loss.path, loss.kind])).toEqual([
      ['usage.input_tokens', 'coerced'],
      ['usage.output_tokens', 'coerced'],
    ]);
  });

  test('the official SDK parses it; output_text joins the message text', async () => {
    const body = codec.encodeReply(anthropicReply, new LossLog());
    const response = await withOpenAIClient(
      { contentType: 'application/json', chunks: [JSON.stringify(body)] },
      (client) => client.responses.create({ model: 'claude-sonnet-4', input: 'hi' }),
    );
    expect(response.output_text).toBe('Hello! Checking the weather.');
    expect(response.output.map((item) => item.type)).toEqual([
      'reasoning',
      'reasoning',
      'message',
      'function_call',
      'function_call',
    ]);
    const calls = response.output.filter((item) => item.type === 'function_call');
    expect(calls.map((call) => [call.call_id, call.name, JSON.parse(call.arguments)])).toEqual([
      ['toolu_01A', 'get_weather', { city: 'Paris' }],
      ['toolu_01B', 'get_weather', { city: 'Lyon' }],
    ]);
    expect(response.usage).toMatchObject({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 100 },
      output_tokens: 40,
      total_tokens: 160,
    });
  });

  test('ids are deterministic', () => {
    const first = codec.encodeReply(anthropicReply, new LossLog());
    const second = codec.encodeReply(anthropicReply, new LossLog());
    expect(second).toEqual(first);
  });
});
