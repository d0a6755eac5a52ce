import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { withOpenAIClient } from './local-server.js';
import { readSseEvents } from './sse-helpers.js';

const usage = {
  inputTokens: 10,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 5,
  reasoningTokens: 0,
  webSearchCalls: 0,
  estimated: false,
};

/** A reply as the Gemini decoder gives it: a signed thought, then a call carrying the thought signature. */
const geminiReply: CanonicalReply = {
  id: 'gemini-reply-1',
  model: 'gemini-2.5-pro',
  created: 1_700_000_000,
  parts: [
    { type: 'reasoning', text: 'Need the weather.', signature: { issuer: 'gemini', value: 'CiQBthought==' } },
    {
      type: 'tool-call',
      id: 'call_g1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      signature: { issuer: 'gemini', value: 'CiQBcall==' },
    },
  ],
  finishReason: { unified: 'tool-calls', raw: 'STOP' },
  usage,
  extensions: {},
};

/** The reply of an Anthropic upstream: signed thinking and redacted thinking. */
const anthropicReply: CanonicalReply = {
  ...geminiReply,
  id: 'msg_01A',
  parts: [
    { type: 'reasoning', text: 'Think.', signature: { issuer: 'anthropic', value: 'EqQBsig' } },
    { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKredacted' } },
    { type: 'text', text: 'Done.' },
  ],
  finishReason: { unified: 'stop', raw: 'end_turn' },
};

function outputOf(reply: CanonicalReply): Record<string, unknown>[] {
  return (codec.encodeReply(reply, new LossLog()) as { output: Record<string, unknown>[] }).output;
}

/** The request a Responses client sends next: the history, the previous output echoed as input. */
function echo(output: Record<string, unknown>[], extra: Record<string, unknown>[] = []): CanonicalRequest {
  return codec.decodeRequest(
    {
      model: 'gpt-5',
      input: [{ role: 'user', content: 'Weather in Paris?' }, ...output, ...extra],
    },
    { losses: new LossLog() },
  );
}

function encodeForUpstream(request: CanonicalRequest) {
  const losses = new LossLog();
  const body = codec.encodeRequest(request, { losses, defaultMaxTokens: 1024 });
  return { input: body.input, losses: losses.losses };
}

describe('tokens in replies to a Responses client (JSON)', () => {
  test("another vendor's tokens ride in encrypted_content behind their marker; a call's signature follows its function_call", () => {
    expect(outputOf(geminiReply)).toMatchInlineSnapshot(`
      [
        {
          "encrypted_content": "gemini:CiQBthought==",
          "id": "rs_52d6f84e9d66dd7cd99ca5dfc74d1f38d5ae73a5e1e06d3f",
          "summary": [
            {
              "text": "Need the weather.",
              "type": "summary_text",
            },
          ],
          "type": "reasoning",
        },
        {
          "arguments": "{"city":"Paris"}",
          "call_id": "call_g1",
          "id": "fc_475db6f93c8754c24cb4789f0f90418ec439b44ec66a9413",
          "name": "get_weather",
          "status": "completed",
          "type": "function_call",
        },
        {
          "encrypted_content": "gemini:CiQBcall==",
          "id": "rs_3b46ba81e29df446e98f38205cab20b6b591db6e93db0979",
          "summary": [],
          "type": "reasoning",
        },
      ]
    `);
    expect(outputOf(anthropicReply).slice(0, 2)).toMatchObject([
      { type: 'reasoning', encrypted_content: 'anthropic:EqQBsig', summary: [{ text: 'Think.' }] },
      { type: 'reasoning', encrypted_content: 'anthropic-redacted:EmwKredacted', summary: [] },
    ]);
  });

  test("OpenAI's own encrypted content is written as it is", () => {
    const output = outputOf({
      ...anthropicReply,
      parts: [{ type: 'reasoning', text: 'Hm.', signature: { issuer: 'openai', value: 'gAAAAB-own==' } }],
    });
    expect(output[0]).toMatchObject({ type: 'reasoning', encrypted_content: 'gAAAAB-own==' });
  });
});

describe('tokens echoed back by a Responses client', () => {
  test('each token comes back with its issuer; the signature item after a function_call is that call’s', () => {
    const request = echo(outputOf(geminiReply), [
      { type: 'function_call_output', call_id: 'call_g1', output: '18C' },
    ]);
    expect(request.messages[1]!.parts).toEqual([
      {
        type: 'reasoning',
        text: 'Need the weather.',
        signature: { issuer: 'gemini', value: 'CiQBthought==' },
        extensions: { 'openai-responses': { id: expect.stringMatching(/^rs_/) } },
      },
      {
        type: 'tool-call',
        id: 'call_g1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        signature: { issuer: 'gemini', value: 'CiQBcall==' },
      },
    ]);
    const anthropic = echo(outputOf(anthropicReply));
    expect(anthropic.messages[1]!.parts.slice(0, 2)).toMatchObject([
      { type: 'reasoning', text: 'Think.', signature: { issuer: 'anthropic', value: 'EqQBsig' } },
      { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKredacted' } },
    ]);
  });

  test('a reasoning item with text, or not after a function call, stays reasoning', () => {
    const request = echo([
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gemini:CiQBalone==' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
    ]);
    expect(request.messages[1]!.parts[0]).toMatchObject({
      type: 'reasoning',
      text: '',
      signature: { issuer: 'gemini', value: 'CiQBalone==' },
    });
  });

  test('the reply JSON the SDK parses keeps the items the next turn echoes', async () => {
    const body = codec.encodeReply(geminiReply, new LossLog());
    const response = await withOpenAIClient(
      { contentType: 'application/json', chunks: [JSON.stringify(body)] },
      (client) => client.responses.create({ model: 'm', input: 'hi' }),
    );
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call', 'reasoning']);
    const request = echo(response.output as unknown as Record<string, unknown>[]);
    expect(request.messages[1]!.parts.at(-1)).toMatchObject({
      type: 'tool-call',
      signature: { issuer: 'gemini', value: 'CiQBcall==' },
    });
  });
});

describe('tokens sent to an OpenAI Responses upstream', () => {
  test("only OpenAI's own encrypted content goes upstream, under the item id or one derived from it", () => {
    const request: CanonicalRequest = {
      model: 'gpt-5',
      system: [],
      tools: [],
      stream: false,
      extensions: {},
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          parts: [
            // From an Anthropic client: OpenAI's token came back in a thinking signature.
            {
              type: 'reasoning',
              text: 'Look it up.',
              signature: { issuer: 'openai', value: 'gAAAAB-one==' },
            },
            { type: 'reasoning', text: 'Claude thought.', signature: { issuer: 'anthropic', value: 'EqQB' } },
            { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwK' } },
            { type: 'reasoning', text: 'No token.' },
            {
              type: 'reasoning',
              text: 'Kept id.',
              signature: { issuer: 'openai', value: 'gAAAAB-two==' },
              extensions: { 'openai-responses': { id: 'rs_kept' } },
            },
            {
              type: 'tool-call',
              id: 'call_1',
              name: 'f',
              arguments: '{}',
              signature: { issuer: 'gemini', value: 'CiQB' },
            },
          ],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: 'ok' }] }],
        },
      ],
    };
    const { input, losses } = encodeForUpstream(request);
    expect(input).toMatchInlineSnapshot(`
      [
        {
          "content": "Weather?",
          "role": "user",
        },
        {
          "encrypted_content": "gAAAAB-one==",
          "id": "rs_f64731a81c26ab0ec4c366a1a69e983284f64b14442f8b55",
          "summary": [
            {
              "text": "Look it up.",
              "type": "summary_text",
            },
          ],
          "type": "reasoning",
        },
        {
          "encrypted_content": "gAAAAB-two==",
          "id": "rs_kept",
          "summary": [
            {
              "text": "Kept id.",
              "type": "summary_text",
            },
          ],
          "type": "reasoning",
        },
        {
          "arguments": "{}",
          "call_id": "call_1",
          "name": "f",
          "type": "function_call",
        },
        {
          "call_id": "call_1",
          "output": "ok",
          "type": "function_call_output",
        },
      ]
    `);
    expect(losses).toEqual([
      {
        kind: 'dropped',
        path: 'messages[1].parts[1]',
        reason: 'reasoning with a anthropic token cannot be replayed to OpenAI, which did not issue it',
      },
      {
        kind: 'dropped',
        path: 'messages[1].parts[2]',
        reason: 'reasoning with a anthropic token cannot be replayed to OpenAI, which did not issue it',
      },
      {
        kind: 'dropped',
        path: 'messages[1].parts[3]',
        reason: 'unsigned reasoning cannot be replayed to OpenAI',
      },
      {
        kind: 'dropped',
        path: 'messages[1].parts[5].signature',
        reason: 'a gemini tool call signature cannot be replayed to OpenAI',
      },
    ]);
  });

  test('a Responses client echoing a Gemini turn sends OpenAI none of its tokens', () => {
    const request = echo(outputOf(geminiReply), [
      { type: 'function_call_output', call_id: 'call_g1', output: '18C' },
    ]);
    const { input } = encodeForUpstream(request);
    expect((input as { type?: string }[]).map((item) => item.type ?? 'message')).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
  });
});

describe('tokens in streams to a Responses client', () => {
  const events: StreamEvent[] = [
    { type: 'response-start', id: 'gemini-stream-1', model: 'gemini-2.5-pro', created: 1 },
    { type: 'reasoning-start', index: 0 },
    { type: 'reasoning-delta', index: 0, text: 'Need the weather.' },
    { type: 'reasoning-end', index: 0, signature: { issuer: 'gemini', value: 'CiQBthought==' } },
    { type: 'tool-call-start', index: 1, id: 'call_g1', name: 'get_weather' },
    { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Paris"}' },
    { type: 'tool-call-end', index: 1, signature: { issuer: 'gemini', value: 'CiQBcall==' } },
    { type: 'reasoning-start', index: 2, redactedData: { issuer: 'anthropic', value: 'EmwK' } },
    { type: 'reasoning-end', index: 2 },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'STOP' }, usage },
  ];

  function encodeStream(): string[] {
    const encoder = codec.createStreamEncoder({ losses: new LossLog(), estimatedInputTokens: 1, model: 'm' });
    return [...events.map((event) => encoder.push(event)), encoder.end()];
  }

  test('the item ends carry the tokens; the call signature is a reasoning item added after the call', () => {
    const wire = readSseEvents(new TextEncoder().encode(encodeStream().join(''))).map(
      (event) => JSON.parse(event.data) as Record<string, unknown>,
    );
    const items = wire
      .filter((event) => String(event.type).startsWith('response.output_item.'))
      .map((event) => {
        const item = event.item as Record<string, unknown>;
        return [event.type, event.output_index, item.type, item.encrypted_content];
      });
    expect(items).toEqual([
      ['response.output_item.added', 0, 'reasoning', undefined],
      ['response.output_item.done', 0, 'reasoning', 'gemini:CiQBthought=='],
      ['response.output_item.added', 1, 'function_call', undefined],
      ['response.output_item.done', 1, 'function_call', undefined],
      ['response.output_item.added', 2, 'reasoning', 'gemini:CiQBcall=='],
      ['response.output_item.done', 2, 'reasoning', 'gemini:CiQBcall=='],
      ['response.output_item.added', 3, 'reasoning', 'anthropic-redacted:EmwK'],
      ['response.output_item.done', 3, 'reasoning', 'anthropic-redacted:EmwK'],
    ]);
  });

  test('the SDK accumulates them into the final response, which echoes back to the same tokens', async () => {
    const chunks = encodeStream();
    const final = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, (client) =>
      client.responses.stream({ model: 'm', input: 'hi' }).finalResponse(),
    );
    const request = echo(final.output as unknown as Record<string, unknown>[]);
    expect(request.messages[1]!.parts).toMatchObject([
      {
        type: 'reasoning',
        text: 'Need the weather.',
        signature: { issuer: 'gemini', value: 'CiQBthought==' },
      },
      { type: 'tool-call', id: 'call_g1', signature: { issuer: 'gemini', value: 'CiQBcall==' } },
      { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwK' } },
    ]);
  });
});

describe('tokens in streams from an OpenAI upstream', () => {
  test("OpenAI's encrypted content, at the item's start or end, ends its reasoning block; marked redacted data opens it", () => {
    const sse = [
      { type: 'response.created', response: { id: 'resp_1', model: 'm', created_at: 1 } },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAB-start==' },
      },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAB-start==' },
      },
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'anthropic-redacted:EmwK' },
      },
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'anthropic-redacted:EmwK' },
      },
      { type: 'response.completed', response: { status: 'completed' } },
    ];
    const decoder = codec.createStreamDecoder(new LossLog());
    const decoded = [
      ...sse.flatMap((data) => decoder.push({ event: data.type, id: undefined, data: JSON.stringify(data) })),
      ...decoder.end(),
    ];
    expect(decoded.slice(1, -1)).toEqual([
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-end', index: 0, signature: { issuer: 'openai', value: 'gAAAAB-start==' } },
      { type: 'reasoning-start', index: 1, redactedData: { issuer: 'anthropic', value: 'EmwK' } },
      { type: 'reasoning-end', index: 1 },
    ]);
  });
});
