import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { serveOnce } from './helpers.js';

/** Tokens of every issuer, as the other decoders hand them over. */
const reply: CanonicalReply = {
  id: 'msg_01',
  model: 'm',
  created: 1752150000,
  parts: [
    { type: 'reasoning', text: 'Weather first.', signature: { issuer: 'anthropic', value: 'EqQBCkgI' } },
    { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' } },
    { type: 'reasoning', text: 'A summary.', redactedData: { issuer: 'openai', value: 'gAAAAB' } },
    { type: 'reasoning', text: 'Unsigned thought.' },
    {
      type: 'tool-call',
      id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      signature: { issuer: 'gemini', value: 'CiQBcsjafQ==' },
    },
  ],
  finishReason: { unified: 'tool-calls', raw: 'STOP' },
  usage: emptyUsage(),
  extensions: {},
};

const events: StreamEvent[] = [
  { type: 'response-start', id: 'msg_01', model: 'm', created: 1752150000 },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Weather ' },
  { type: 'reasoning-delta', index: 0, text: 'first.' },
  { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQBCkgI' } },
  { type: 'reasoning-start', index: 1, redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' } },
  { type: 'reasoning-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'call_1', name: 'get_weather' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-end', index: 2, signature: { issuer: 'gemini', value: 'CiQBcsjafQ==' } },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'STOP' } },
];

function encodeStream(list: readonly StreamEvent[], losses = new LossLog()): string {
  const encoder = openAIChatCodec.createStreamEncoder({ losses, estimatedInputTokens: 1, model: 'm' });
  return list.map((event) => encoder.push(event)).join('') + encoder.end();
}

async function withClient<T>(
  body: string,
  contentType: string,
  use: (client: OpenAI) => Promise<T>,
): Promise<T> {
  const server = await serveOnce(body, contentType);
  try {
    return await use(new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 }));
  } finally {
    await server.close();
  }
}

const question = { role: 'user' as const, content: 'Weather in Paris?' };

/** The second turn a client sends: the first turn's message, pushed back as the SDK returned it. */
function decodeEcho(message: unknown, losses = new LossLog()) {
  return openAIChatCodec.decodeRequest(
    {
      model: 'm',
      messages: [
        question,
        JSON.parse(JSON.stringify(message)) as unknown,
        { role: 'tool', tool_call_id: 'call_1', content: '18C' },
      ],
    },
    { losses },
  );
}

describe('signatures in replies to chat clients', () => {
  test('reasoning_details carries every reasoning block with its issuer; extra_content the Gemini signature', () => {
    const losses = new LossLog();
    const body = openAIChatCodec.encodeReply(reply, losses) as { choices: { message: unknown }[] };
    expect(body.choices[0]?.message).toMatchInlineSnapshot(`
      {
        "content": null,
        "reasoning_content": "Weather first.A summary.Unsigned thought.",
        "reasoning_details": [
          {
            "format": "anthropic-claude-v1",
            "index": 0,
            "signature": "EqQBCkgI",
            "text": "Weather first.",
            "type": "reasoning.text",
          },
          {
            "data": "EmwKAhgB",
            "format": "anthropic-claude-v1",
            "index": 1,
            "type": "reasoning.encrypted",
          },
          {
            "format": "openai-responses-v1",
            "index": 2,
            "text": "A summary.",
            "type": "reasoning.text",
          },
          {
            "data": "gAAAAB",
            "format": "openai-responses-v1",
            "index": 2,
            "type": "reasoning.encrypted",
          },
          {
            "format": "unknown",
            "index": 3,
            "text": "Unsigned thought.",
            "type": "reasoning.text",
          },
        ],
        "refusal": null,
        "role": "assistant",
        "tool_calls": [
          {
            "extra_content": {
              "google": {
                "thought_signature": "CiQBcsjafQ==",
              },
            },
            "function": {
              "arguments": "{"city":"Paris"}",
              "name": "get_weather",
            },
            "id": "call_1",
            "type": "function",
          },
        ],
      }
    `);
    expect(losses.losses).toEqual([]);
  });

  test('a tool call signature of another vendor has no place in chat completions (recorded)', () => {
    const losses = new LossLog();
    const body = openAIChatCodec.encodeReply(
      {
        ...reply,
        parts: [
          {
            type: 'tool-call',
            id: 'call_1',
            name: 'f',
            arguments: '{}',
            signature: { issuer: 'anthropic', value: 'x' },
          },
        ],
      },
      losses,
    );
    expect(JSON.stringify(body)).not.toContain('extra_content');
    expect(losses.losses).toEqual([
      {
        path: 'parts[0].signature',
        kind: 'dropped',
        reason: "chat completions tool calls carry only Gemini signatures, not anthropic's",
      },
    ]);
  });

  test('the stream carries them too: reasoning_details once, before the finish; extra_content when the call ends', () => {
    const losses = new LossLog();
    const text = encodeStream(events, losses);
    const deltas = text
      .split('\n\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta: unknown }[] }).choices[0]?.delta);
    expect(deltas.slice(-3)).toMatchInlineSnapshot(`
      [
        {
          "tool_calls": [
            {
              "extra_content": {
                "google": {
                  "thought_signature": "CiQBcsjafQ==",
                },
              },
              "index": 0,
            },
          ],
        },
        {
          "reasoning_details": [
            {
              "format": "anthropic-claude-v1",
              "index": 0,
              "signature": "EqQBCkgI",
              "text": "Weather first.",
              "type": "reasoning.text",
            },
            {
              "data": "EmwKAhgB",
              "format": "anthropic-claude-v1",
              "index": 1,
              "type": "reasoning.encrypted",
            },
          ],
        },
        {},
      ]
    `);
    expect(losses.losses).toEqual([]);
  });

  test('JSON: the openai SDK keeps both; the echoed message decodes back to the same tokens', async () => {
    const completion = await withClient(
      JSON.stringify(openAIChatCodec.encodeReply(reply, new LossLog())),
      'application/json',
      (client) => client.chat.completions.create({ model: 'm', messages: [question] }),
    );
    const losses = new LossLog();
    const request = decodeEcho(completion.choices[0]?.message, losses);
    expect(request.messages[1]?.parts).toEqual([
      {
        type: 'reasoning',
        text: 'Weather first.',
        signature: { issuer: 'anthropic', value: 'EqQBCkgI' },
        extensions: { 'openai-chat': { reasoningContent: true } },
      },
      {
        type: 'reasoning',
        text: '',
        redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' },
        extensions: { 'openai-chat': { reasoningContent: true } },
      },
      {
        type: 'reasoning',
        text: 'A summary.',
        redactedData: { issuer: 'openai', value: 'gAAAAB' },
        extensions: { 'openai-chat': { reasoningContent: true } },
      },
      {
        type: 'reasoning',
        text: 'Unsigned thought.',
        extensions: { 'openai-chat': { reasoningContent: true } },
      },
      {
        type: 'tool-call',
        id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        signature: { issuer: 'gemini', value: 'CiQBcsjafQ==' },
      },
    ]);
    expect(losses.losses).toEqual([]);
  });

  test('stream: the SDK stream helper keeps reasoning_details and extra_content; its reasoning_content is the last piece only', async () => {
    const final = await withClient(encodeStream(events), 'text/event-stream', (client) =>
      client.chat.completions
        .stream({ model: 'm', messages: [question], stream: true })
        .finalChatCompletion(),
    );
    const message = final.choices[0]?.message as unknown as Record<string, unknown>;
    // `ChatCompletionStream` assigns unknown delta members, so the last piece wins.
    expect(message.reasoning_content).toBe('first.');
    expect(message.reasoning_details).toEqual([
      {
        type: 'reasoning.text',
        text: 'Weather first.',
        signature: 'EqQBCkgI',
        format: 'anthropic-claude-v1',
        index: 0,
      },
      { type: 'reasoning.encrypted', data: 'EmwKAhgB', format: 'anthropic-claude-v1', index: 1 },
    ]);
    expect(final.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        extra_content: { google: { thought_signature: 'CiQBcsjafQ==' } },
      },
    ]);
    const request = decodeEcho(final.choices[0]?.message);
    expect(
      request.messages[1]?.parts.map((part) => [part.type, (part as { signature?: unknown }).signature]),
    ).toEqual([
      ['reasoning', { issuer: 'anthropic', value: 'EqQBCkgI' }],
      ['reasoning', undefined],
      ['tool-call', { issuer: 'gemini', value: 'CiQBcsjafQ==' }],
    ]);
    // reasoning_details rules over the truncated reasoning_content.
    expect(request.messages[1]?.parts[0]).toMatchObject({ text: 'Weather first.' });
  });
});

describe('signatures echoed by chat clients', () => {
  const decode = (message: Record<string, unknown>) => {
    const losses = new LossLog();
    const request = decodeEcho({ role: 'assistant', content: null, ...message }, losses);
    return { parts: request.messages[1]?.parts, losses: losses.losses };
  };
  const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };

  test('pieces of one block (same index) are one part; unknown formats lose their token, recorded', () => {
    const { parts, losses } = decode({
      reasoning_details: [
        { type: 'reasoning.text', text: 'Step one, ', format: 'anthropic-claude-v1', index: 0 },
        {
          type: 'reasoning.text',
          text: 'step two.',
          signature: 'sig',
          format: 'anthropic-claude-v1',
          index: 0,
        },
        { type: 'reasoning.summary', summary: 'Summary.', format: 'xai-responses-v1', index: 1 },
        { type: 'reasoning.encrypted', data: 'opaque', format: 'xai-responses-v1', index: 2 },
        { type: 'reasoning.text', text: 'Kept.', signature: 'x', format: 'unknown', index: 3 },
        { type: 'reasoning.image', index: 4 },
      ],
      tool_calls: [call],
    });
    expect(parts).toEqual([
      { type: 'reasoning', text: 'Step one, step two.', signature: { issuer: 'anthropic', value: 'sig' } },
      { type: 'reasoning', text: 'Summary.' },
      { type: 'reasoning', text: 'Kept.' },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' },
    ]);
    expect(losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "messages[1].reasoning_details[3].data",
          "reason": "a token of format "xai-responses-v1" has no issuer the gateway can return it to",
        },
        {
          "kind": "dropped",
          "path": "messages[1].reasoning_details[4].signature",
          "reason": "a token of format "unknown" has no issuer the gateway can return it to",
        },
        {
          "kind": "dropped",
          "path": "messages[1].reasoning_details[5]",
          "reason": "a reasoning detail of type "reasoning.image" is unknown",
        },
      ]
    `);
  });

  test("OpenRouter's Gemini signature: an encrypted entry naming the tool call by id", () => {
    const { parts } = decode({
      reasoning_details: [
        { type: 'reasoning.encrypted', data: 'CiQB', id: 'call_1', format: 'google-gemini-v1', index: 0 },
      ],
      tool_calls: [call],
    });
    expect(parts).toEqual([
      {
        type: 'tool-call',
        id: 'call_1',
        name: 'f',
        arguments: '{}',
        signature: { issuer: 'gemini', value: 'CiQB' },
      },
    ]);
  });

  test('reasoning_content alone is a reasoning part as before', () => {
    expect(decode({ reasoning_content: 'Hmm.', tool_calls: [call] }).parts?.[0]).toEqual({
      type: 'reasoning',
      text: 'Hmm.',
      extensions: { 'openai-chat': { reasoningContent: true } },
    });
  });

  test('an OpenAI chat upstream gets reasoning_content back, and no token (recorded)', async () => {
    const completion = await withClient(
      JSON.stringify(openAIChatCodec.encodeReply(reply, new LossLog())),
      'application/json',
      (client) => client.chat.completions.create({ model: 'm', messages: [question] }),
    );
    const losses = new LossLog();
    const body = openAIChatCodec.encodeRequest(decodeEcho(completion.choices[0]?.message), {
      losses,
      defaultMaxTokens: 1024,
    });
    expect((body.messages as unknown[])[1]).toMatchInlineSnapshot(`
      {
        "content": null,
        "reasoning_content": "Weather first.A summary.Unsigned thought.",
        "role": "assistant",
        "tool_calls": [
          {
            "function": {
              "arguments": "{"city":"Paris"}",
              "name": "get_weather",
            },
            "id": "call_1",
            "type": "function",
          },
        ],
      }
    `);
    expect(losses.losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "messages[1].parts[0].signature",
          "reason": "chat completions upstreams take no reasoning signature",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[1].redactedData",
          "reason": "chat completions upstreams take no redacted reasoning",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[2].redactedData",
          "reason": "chat completions upstreams take no redacted reasoning",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[4].signature",
          "reason": "tool calls carry no signature here",
        },
      ]
    `);
  });
});
