import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { fixtureJson, serveOnce } from './helpers.js';

function decode(body: unknown) {
  const losses = new LossLog();
  return { reply: openAIChatCodec.decodeReply(body, losses), losses: losses.losses };
}

describe('decodeReply', () => {
  test('reply-text.json', () => {
    const { reply, losses } = decode(fixtureJson('reply-text.json'));
    expect(reply.id).toBe('chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT');
    expect(reply.model).toBe('gpt-4o-2024-08-06');
    expect(reply.created).toBe(1741569952);
    expect(reply.parts).toEqual([
      { type: 'text', text: 'Paris has the Eiffel Tower, the Louvre and about 2.1 million people.' },
    ]);
    expect(reply.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(reply.usage).toMatchObject({
      inputTokens: 19,
      outputTokens: 18,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      estimated: false,
    });
    expect(reply.usage.raw).toEqual(fixtureJson('reply-text.json').usage);
    expect(reply.extensions).toEqual({
      'openai-chat': {
        fields: { service_tier: 'default', system_fingerprint: 'fp_fc9f1d7035' },
        choiceFields: { logprobs: null },
        messageFields: { annotations: [] },
      },
    });
    expect(losses).toEqual([]);
  });

  test('reply-tool-calls.json: parallel calls, cached tokens', () => {
    const { reply } = decode(fixtureJson('reply-tool-calls.json'));
    expect(reply.parts).toEqual([
      { type: 'tool-call', id: 'call_8uPe1mXkR2yQz3', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'call_Qm4hT7bNw9LsA1', name: 'get_weather', arguments: '{"city":"Lyon"}' },
    ]);
    expect(reply.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
    expect(reply.usage).toMatchObject({ inputTokens: 1117, cacheReadTokens: 1024, outputTokens: 46 });
  });

  test('reply-deepseek-reasoning.json: reasoning_content first, reasoning tokens, id kept as sent', () => {
    const { reply } = decode(fixtureJson('reply-deepseek-reasoning.json'));
    expect(reply.id).toBe('930c60df-bf64-41c9-a88e-3ec75f81e00e');
    expect(reply.parts).toEqual([
      { type: 'reasoning', text: 'Compare the tenths: 1 is less than 8, so 9.11 < 9.8.' },
      { type: 'text', text: '9.11 is smaller than 9.8.' },
    ]);
    expect(reply.usage).toMatchObject({ inputTokens: 17, outputTokens: 206, reasoningTokens: 189 });
  });

  test('reply-two-choices.json: the first choice is kept, the rest recorded as lost', () => {
    const { reply, losses } = decode(fixtureJson('reply-two-choices.json'));
    expect(reply.parts).toEqual([{ type: 'text', text: 'Bonjour!' }]);
    expect(losses).toEqual([
      { path: 'choices', kind: 'dropped', reason: 'only the first of 2 choices is kept' },
    ]);
  });

  test('finish reasons', () => {
    const finish = (value: unknown) =>
      decode({ id: 'x', choices: [{ index: 0, message: {}, finish_reason: value }] }).reply.finishReason;
    expect(finish('length')).toEqual({ unified: 'length', raw: 'length' });
    expect(finish('content_filter')).toEqual({ unified: 'content-filter', raw: 'content_filter' });
    expect(finish('function_call')).toEqual({ unified: 'tool-calls', raw: 'function_call' });
    expect(finish('insufficient_system_resource')).toEqual({
      unified: 'error',
      raw: 'insufficient_system_resource',
    });
    expect(finish('eos')).toEqual({ unified: 'other', raw: 'eos' });
    expect(finish(null)).toEqual({ unified: 'other', raw: undefined });
  });

  test('lenient with what compatible servers send: refusal, `reasoning`, DeepSeek cache hits, missing ids', () => {
    const { reply } = decode({
      created: 1,
      choices: [
        {
          index: 0,
          message: {
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
            reasoning: 'thought',
            refusal: 'I cannot help with that.',
            tool_calls: [{ function: { name: 'f', arguments: { x: 1 } } }],
          },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 2, prompt_cache_hit_tokens: 6 },
    });
    expect(reply.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(reply.parts).toEqual([
      { type: 'reasoning', text: 'thought' },
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'text', text: 'I cannot help with that.', extensions: { 'openai-chat': { refusal: true } } },
      {
        type: 'tool-call',
        id: expect.stringMatching(/^call_[0-9a-f]{24}$/) as unknown,
        name: 'f',
        arguments: '{"x":1}',
      },
    ]);
    expect(reply.usage).toMatchObject({ inputTokens: 10, cacheReadTokens: 6, outputTokens: 2 });
  });

  test('a body that is not a completion decodes to an empty reply with unknown usage', () => {
    const { reply } = decode('<html>');
    expect(reply.parts).toEqual([]);
    expect(reply.finishReason).toEqual({ unified: 'other', raw: undefined });
    expect(reply.usage).toEqual(emptyUsage());
  });
});

/** What the Anthropic decoder hands over for a reply with thinking and a tool call. */
const anthropicReply: CanonicalReply = {
  id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
  model: 'claude-sonnet-4',
  created: 1752150000,
  parts: [
    {
      type: 'reasoning',
      text: 'The user wants the weather.',
      signature: { issuer: 'anthropic', value: 'EqQBCkgIARABGAIiQ' },
    },
    { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgBEgy3va3p' } },
    { type: 'text', text: 'Let me check.' },
    {
      type: 'tool-call',
      id: 'toolu_01A09q90qw90lq917835lq9',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: {
    inputTokens: 2095,
    cacheReadTokens: 1800,
    cacheWriteTokens: 200,
    outputTokens: 503,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
  },
  extensions: { 'anthropic-messages': { stop_sequence: null } },
};

describe('encodeReply', () => {
  test('thinking goes out as reasoning_content, and with signatures and redacted thinking in reasoning_details', () => {
    const losses = new LossLog();
    expect(openAIChatCodec.encodeReply(anthropicReply, losses)).toMatchInlineSnapshot(`
      {
        "choices": [
          {
            "finish_reason": "tool_calls",
            "index": 0,
            "logprobs": null,
            "message": {
              "content": "Let me check.",
              "reasoning_content": "The user wants the weather.",
              "reasoning_details": [
                {
                  "format": "anthropic-claude-v1",
                  "index": 0,
                  "signature": "EqQBCkgIARABGAIiQ",
                  "text": "The user wants the weather.",
                  "type": "reasoning.text",
                },
                {
                  "data": "EmwKAhgBEgy3va3p",
                  "format": "anthropic-claude-v1",
                  "index": 1,
                  "type": "reasoning.encrypted",
                },
              ],
              "refusal": null,
              "role": "assistant",
              "tool_calls": [
                {
                  "function": {
                    "arguments": "{"city":"Paris"}",
                    "name": "get_weather",
                  },
                  "id": "toolu_01A09q90qw90lq917835lq9",
                  "type": "function",
                },
              ],
            },
          },
        ],
        "created": 1752150000,
        "id": "chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL",
        "model": "claude-sonnet-4",
        "object": "chat.completion",
        "usage": {
          "completion_tokens": 503,
          "completion_tokens_details": {
            "reasoning_tokens": 0,
          },
          "prompt_tokens": 2095,
          "prompt_tokens_details": {
            "cache_write_tokens": 200,
            "cached_tokens": 1800,
          },
          "total_tokens": 2598,
        },
      }
    `);
    expect(losses.losses).toMatchInlineSnapshot(`[]`);
  });

  test('finish reasons chat completions cannot say go as stop, recorded', () => {
    const losses = new LossLog();
    const reply = { ...anthropicReply, parts: [{ type: 'text' as const, text: 'x' }] };
    const encoded = openAIChatCodec.encodeReply(
      { ...reply, finishReason: { unified: 'other', raw: 'pause_turn' } },
      losses,
    ) as { choices: { finish_reason: string }[] };
    expect(encoded.choices[0]?.finish_reason).toBe('stop');
    expect(losses.losses).toEqual([
      { path: 'finishReason', kind: 'coerced', reason: 'other (pause_turn) goes as stop' },
    ]);
  });

  test('a refusal goes back to the refusal field; unknown usage counts go as 0', () => {
    const losses = new LossLog();
    const encoded = openAIChatCodec.encodeReply(
      {
        ...anthropicReply,
        id: 'chatcmpl-1',
        parts: [{ type: 'text', text: 'No.', extensions: { 'openai-chat': { refusal: true } } }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: emptyUsage(),
      },
      losses,
    );
    expect(encoded).toMatchObject({
      id: 'chatcmpl-1',
      choices: [{ message: { role: 'assistant', content: null, refusal: 'No.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });

  test('the openai SDK parses the encoded reply', async () => {
    const body = JSON.stringify(openAIChatCodec.encodeReply(anthropicReply, new LossLog()));
    const server = await serveOnce(body, 'application/json');
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: 'claude-sonnet-4',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expect(completion.object).toBe('chat.completion');
      expect(completion.id).toBe('chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL');
      const [choice] = completion.choices;
      expect(choice?.finish_reason).toBe('tool_calls');
      expect(choice?.message.content).toBe('Let me check.');
      expect((choice?.message as { reasoning_content?: string }).reasoning_content).toBe(
        'The user wants the weather.',
      );
      expect(choice?.message.tool_calls).toEqual([
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
      ]);
      expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(1800);
    } finally {
      await server.close();
    }
  });
});
