import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { fixtureJson } from './sse-helpers.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function encode(request: CanonicalRequest) {
  const losses = new LossLog();
  return { body: codec.encodeRequest(request, { losses, defaultMaxTokens: 8192 }), losses: losses.losses };
}

function canonical(overrides: Partial<CanonicalRequest>): CanonicalRequest {
  return { model: 'gpt-5', system: [], messages: [], tools: [], stream: false, extensions: {}, ...overrides };
}

/** A request as another protocol's decoder (Anthropic messages here) would give it. */
const fromAnthropic = canonical({
  model: 'gpt-5-upstream',
  system: [
    { type: 'text', text: 'You are terse.', cacheControl: { type: 'ephemeral' } },
    { type: 'text', text: 'Use metric units.' },
  ],
  messages: [
    {
      role: 'user',
      name: 'alice',
      parts: [
        { type: 'text', text: 'Describe these.' },
        { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: PNG } },
        { type: 'file', mediaType: 'application/pdf', source: { kind: 'base64', data: 'JVBERi0xLjQ=' } },
        { type: 'file', mediaType: 'audio/wav', source: { kind: 'base64', data: 'UklGRg==' } },
      ],
    },
    {
      role: 'assistant',
      parts: [
        {
          type: 'reasoning',
          text: 'Two files.',
          signature: { issuer: 'anthropic', value: 'EqQBCkYIBxgCKkDs' },
        },
        { type: 'text', text: 'Checking.' },
        {
          type: 'tool-call',
          id: 'toolu_01A',
          name: 'lookup',
          arguments: '{"q":"png"}',
          signature: { issuer: 'gemini', value: 'gemini-sig' },
        },
        { type: 'raw', protocol: 'anthropic-messages', value: { type: 'server_tool_use', id: 'srvtoolu_1' } },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          type: 'tool-result',
          toolCallId: 'toolu_01A',
          name: 'lookup',
          isError: true,
          cacheControl: { type: 'ephemeral', ttl: '1h' },
          content: [{ type: 'text', text: 'not found' }],
        },
        { type: 'text', text: 'Try again.' },
      ],
    },
  ],
  tools: [
    { type: 'function', name: 'lookup', parameters: { type: 'object' }, cacheControl: { type: 'ephemeral' } },
    {
      type: 'provider',
      kind: 'web-search',
      protocol: 'anthropic-messages',
      value: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    },
    {
      type: 'provider',
      kind: 'other',
      protocol: 'anthropic-messages',
      value: { type: 'code_execution_20250522', name: 'code_execution' },
    },
  ],
  toolChoice: { type: 'tool', name: 'lookup' },
  maxOutputTokens: 1,
  temperature: 0.2,
  topK: 5,
  stop: ['END'],
  seed: 7,
  frequencyPenalty: 0.1,
  presencePenalty: 0.2,
  reasoning: { enabled: true, budgetTokens: 3000 },
  responseFormat: { type: 'json-object' },
  stream: true,
  user: 'end-user-1',
  extensions: { 'anthropic-messages': { metadata: { user_id: 'end-user-1' } } },
});

describe('encodeRequest from another protocol', () => {
  test('the upstream body', () => {
    expect(encode(fromAnthropic).body).toMatchInlineSnapshot(`
      {
        "input": [
          {
            "content": [
              {
                "text": "Describe these.",
                "type": "input_text",
              },
              {
                "detail": "auto",
                "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
                "type": "input_image",
              },
              {
                "file_data": "data:application/pdf;base64,JVBERi0xLjQ=",
                "filename": "file.pdf",
                "type": "input_file",
              },
            ],
            "role": "user",
          },
          {
            "content": "Checking.",
            "role": "assistant",
          },
          {
            "arguments": "{"q":"png"}",
            "call_id": "toolu_01A",
            "name": "lookup",
            "type": "function_call",
          },
          {
            "call_id": "toolu_01A",
            "output": "not found",
            "type": "function_call_output",
          },
          {
            "content": "Try again.",
            "role": "user",
          },
        ],
        "instructions": "You are terse.

      Use metric units.",
        "max_output_tokens": 16,
        "model": "gpt-5-upstream",
        "reasoning": {
          "effort": "medium",
        },
        "store": false,
        "stream": true,
        "temperature": 0.2,
        "text": {
          "format": {
            "type": "json_object",
          },
        },
        "tool_choice": {
          "name": "lookup",
          "type": "function",
        },
        "tools": [
          {
            "name": "lookup",
            "parameters": {
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
          {
            "type": "web_search",
          },
        ],
        "user": "end-user-1",
      }
    `);
  });

  test('every loss is recorded with its path', () => {
    expect(encode(fromAnthropic).losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "system[0].cache_control",
          "reason": "Responses instructions carry no cache marker",
        },
        {
          "kind": "coerced",
          "path": "system",
          "reason": "2 system text parts are joined into one instructions string",
        },
        {
          "kind": "dropped",
          "path": "messages[0].name",
          "reason": "Responses messages carry no participant name",
        },
        {
          "kind": "dropped",
          "path": "messages[0].parts[3]",
          "reason": "Responses accepts no audio/wav input",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[0]",
          "reason": "reasoning with a anthropic token cannot be replayed to OpenAI, which did not issue it",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[2].signature",
          "reason": "a gemini tool call signature cannot be replayed to OpenAI",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[3]",
          "reason": "a raw anthropic-messages block has no Responses form",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[0].is_error",
          "reason": "Responses function call outputs carry no error flag",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[0].cache_control",
          "reason": "Responses has no cache marker on tool results",
        },
        {
          "kind": "dropped",
          "path": "tools[0].cache_control",
          "reason": "Responses tools carry no cache marker",
        },
        {
          "kind": "coerced",
          "path": "tools[1]",
          "reason": "the anthropic-messages web search tool is sent as Responses web_search, without its settings",
        },
        {
          "kind": "dropped",
          "path": "tools[2]",
          "reason": "the anthropic-messages tool "code_execution_20250522" has no Responses form",
        },
        {
          "kind": "coerced",
          "path": "max_output_tokens",
          "reason": "Responses requires at least 16 output tokens; 1 is raised",
        },
        {
          "kind": "dropped",
          "path": "top_k",
          "reason": "Responses has no top_k",
        },
        {
          "kind": "dropped",
          "path": "stop",
          "reason": "Responses has no stop",
        },
        {
          "kind": "dropped",
          "path": "frequency_penalty",
          "reason": "Responses has no frequency_penalty",
        },
        {
          "kind": "dropped",
          "path": "presence_penalty",
          "reason": "Responses has no presence_penalty",
        },
        {
          "kind": "dropped",
          "path": "seed",
          "reason": "Responses has no seed",
        },
        {
          "kind": "coerced",
          "path": "reasoning.budget_tokens",
          "reason": "a thinking budget of 3000 tokens is sent as effort medium",
        },
      ]
    `);
  });

  test('the losses client-api 4.7 documents for conversions are recorded', () => {
    const losses = encode(fromAnthropic).losses;
    // A system given as several blocks is merged into one string; their cache_control is lost.
    expect(losses).toContainEqual(expect.objectContaining({ path: 'system', kind: 'coerced' }));
    expect(losses).toContainEqual(
      expect.objectContaining({ path: 'system[0].cache_control', kind: 'dropped' }),
    );
    // Signed thinking cannot be sent back through another protocol.
    expect(losses).toContainEqual(expect.objectContaining({ path: 'messages[1].parts[0]', kind: 'dropped' }));
    // Tools other than functions and web search do not cross.
    expect(losses).toContainEqual(expect.objectContaining({ path: 'tools[2]', kind: 'dropped' }));
  });

  test('a lone user text is the string form of input', () => {
    const { body } = encode(
      canonical({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }] }),
    );
    expect(body).toEqual({ model: 'gpt-5', input: 'Hi', store: false });
  });
});

describe('encodeRequest on a same-protocol round trip (an effort modifier on a Responses client)', () => {
  test('the body comes back as the client sent it, the modifier effort applied', () => {
    const original = fixtureJson('request-full.json');
    const request = codec.decodeRequest(original, { losses: new LossLog() });
    const { body, losses } = encode({ ...request, reasoning: { ...request.reasoning, effort: 'low' } });
    expect(losses).toEqual([]);
    expect(body).toEqual({
      ...original,
      reasoning: { effort: 'low', summary: 'detailed' },
      // Explicit defaults: an image without detail is `auto`.
      input: (original.input as Record<string, unknown>[]).map((item, index) =>
        index === 1
          ? {
              ...item,
              content: (item.content as Record<string, unknown>[]).map((part) =>
                part.type === 'input_image' && part.detail === undefined ? { ...part, detail: 'auto' } : part,
              ),
            }
          : item,
      ),
      // `parameters: null` is sent as an empty schema.
      tools: (original.tools as Record<string, unknown>[]).map((tool) =>
        tool.parameters === null ? { ...tool, parameters: {} } : tool,
      ),
    });
  });
});

describe('reasoning in the upstream form (admin-api section 4)', () => {
  test.each([
    [{ effort: 'none' as const }, { effort: 'none' }],
    [
      { effort: 'xhigh' as const, summary: 'concise' as const },
      { effort: 'xhigh', summary: 'concise' },
    ],
    [{ enabled: false }, { effort: 'none' }],
    [{ includeThoughts: true }, { summary: 'auto' }],
    [{ budgetTokens: 0 }, { effort: 'none' }],
    [{ budgetTokens: 1024 }, { effort: 'low' }],
    [{ budgetTokens: 8192 }, { effort: 'medium' }],
    [{ budgetTokens: 24576 }, { effort: 'high' }],
    [{ effort: 'minimal' as const, budgetTokens: 24576 }, { effort: 'minimal' }],
  ])('%j -> %j', (reasoning, wire) => {
    expect(encode(canonical({ reasoning })).body.reasoning).toEqual(wire);
  });

  test('enabled without effort or budget leaves the model default', () => {
    expect(encode(canonical({ reasoning: { enabled: true } })).body.reasoning).toBeUndefined();
  });
});

describe('tools and formats', () => {
  test('tool choice modes and a json schema format', () => {
    for (const type of ['auto', 'none', 'required'] as const) {
      expect(encode(canonical({ toolChoice: { type } })).body.tool_choice).toBe(type);
    }
    const { body } = encode(
      canonical({
        responseFormat: {
          type: 'json-schema',
          name: 'r',
          schema: { type: 'object' },
          strict: false,
          description: 'd',
        },
      }),
    );
    expect(body.text).toEqual({
      format: { type: 'json_schema', name: 'r', schema: { type: 'object' }, strict: false, description: 'd' },
    });
  });

  test('a strict flag chosen by the other protocol is kept', () => {
    const { body } = encode(
      canonical({ tools: [{ type: 'function', name: 'f', parameters: {}, strict: true }] }),
    );
    expect(body.tools).toEqual([{ type: 'function', name: 'f', parameters: {}, strict: true }]);
  });

  test('tool results with files become output lists; empty results an empty string', () => {
    const { body } = encode(
      canonical({
        messages: [
          {
            role: 'tool',
            parts: [
              {
                type: 'tool-result',
                toolCallId: 'call_1',
                content: [
                  { type: 'text', text: 'see' },
                  {
                    type: 'file',
                    mediaType: 'image/png',
                    source: { kind: 'url', url: 'https://a.example/x.png' },
                  },
                ],
              },
              { type: 'tool-result', toolCallId: 'call_2', content: [] },
            ],
          },
        ],
      }),
    );
    expect(body.input).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'https://a.example/x.png', detail: 'auto' },
        ],
      },
      { type: 'function_call_output', call_id: 'call_2', output: '' },
    ]);
  });
});
