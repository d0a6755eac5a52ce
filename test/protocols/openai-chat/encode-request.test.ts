import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { fixtureJson } from './helpers.js';

function encode(request: CanonicalRequest) {
  const losses = new LossLog();
  const body = openAIChatCodec.encodeRequest(request, { losses, defaultMaxTokens: 8192 });
  return { body, losses: losses.losses };
}

function base(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'gpt-4o',
    system: [],
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    tools: [],
    stream: false,
    extensions: {},
    ...overrides,
  };
}

/** What the Anthropic decoder hands over for a Claude Code style request (shape of src/ir only). */
const fromAnthropic: CanonicalRequest = {
  model: 'gpt-4o-2024-08-06',
  system: [{ type: 'text', text: 'You are terse.', cacheControl: { type: 'ephemeral' } }],
  messages: [
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'Look at this.', cacheControl: { type: 'ephemeral', ttl: '1h' } },
        { type: 'file', mediaType: 'image/jpeg', source: { kind: 'base64', data: '/9j/4AAQ' } },
        {
          type: 'file',
          mediaType: 'application/pdf',
          source: { kind: 'url', url: 'https://example.com/doc.pdf' },
        },
      ],
    },
    {
      role: 'assistant',
      parts: [
        {
          type: 'reasoning',
          text: 'I should take a screenshot.',
          signature: { issuer: 'anthropic', value: 'EqQBCkgIARABGAIiQ' },
        },
        { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgBEgy3va3p' } },
        { type: 'text', text: 'Taking a screenshot.' },
        { type: 'tool-call', id: 'toolu_01A', name: 'screenshot', arguments: '{}' },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          type: 'tool-result',
          toolCallId: 'toolu_01A',
          content: [
            { type: 'text', text: 'Screenshot taken.' },
            { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: 'iVBORw0KGgo=' } },
          ],
          isError: true,
        },
        { type: 'text', text: 'What do you see?' },
        { type: 'raw', protocol: 'anthropic-messages', value: { type: 'container_upload', file_id: 'f' } },
      ],
    },
  ],
  tools: [
    {
      type: 'function',
      name: 'screenshot',
      parameters: { type: 'object', properties: {} },
      cacheControl: { type: 'ephemeral' },
    },
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
      value: { type: 'bash_20250124', name: 'bash' },
    },
  ],
  toolChoice: { type: 'required' },
  maxOutputTokens: 4096,
  temperature: 1,
  topK: 5,
  stop: ['\n\nHuman:'],
  reasoning: { enabled: true, budgetTokens: 10000 },
  stream: true,
  user: 'user-7',
  extensions: { 'anthropic-messages': { metadata: { user_id: 'user-7' } } },
};

describe('encodeRequest', () => {
  test('a chat request comes back as the client wrote it', () => {
    const losses = new LossLog();
    const decoded = openAIChatCodec.decodeRequest(fixtureJson('request-full.json'), { losses });
    const { body, losses: encodeLosses } = encode(decoded);
    expect(encodeLosses).toEqual([]);
    expect(body).toMatchInlineSnapshot(`
      {
        "frequency_penalty": 0.1,
        "logprobs": false,
        "max_completion_tokens": 1024,
        "messages": [
          {
            "content": "You are a travel assistant.",
            "role": "developer",
          },
          {
            "content": "Answer briefly.",
            "name": "policy",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "What is in Paris?",
                "type": "text",
              },
              {
                "image_url": {
                  "detail": "low",
                  "url": "data:image/png;base64,iVBORw0KGgo=",
                },
                "type": "image_url",
              },
              {
                "image_url": {
                  "url": "https://example.com/eiffel.jpg",
                },
                "type": "image_url",
              },
              {
                "input_audio": {
                  "data": "UklGRiQ=",
                  "format": "wav",
                },
                "type": "input_audio",
              },
              {
                "file": {
                  "file_data": "data:application/pdf;base64,JVBERi0=",
                  "filename": "guide.pdf",
                },
                "type": "file",
              },
              {
                "file": {
                  "file_id": "file-abc123",
                },
                "type": "file",
              },
            ],
            "name": "alice",
            "role": "user",
          },
          {
            "content": null,
            "reasoning_content": "The user wants the weather first.",
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
              {
                "function": {
                  "arguments": "{}",
                  "name": "get_time",
                },
                "id": "call_2",
                "type": "function",
              },
            ],
          },
          {
            "content": "18°C, cloudy",
            "role": "tool",
            "tool_call_id": "call_1",
          },
          {
            "content": "14:05",
            "role": "tool",
            "tool_call_id": "call_2",
          },
          {
            "content": "Mention the time.",
            "role": "developer",
          },
          {
            "content": "It is 18°C and 14:05 in Paris.",
            "role": "assistant",
          },
          {
            "content": "Thanks! Anything else?",
            "role": "user",
          },
        ],
        "metadata": {
          "trace": "abc",
        },
        "model": "claude-sonnet-4",
        "n": 1,
        "parallel_tool_calls": true,
        "presence_penalty": 0.2,
        "reasoning_effort": "high",
        "response_format": {
          "json_schema": {
            "description": "The answer",
            "name": "answer",
            "schema": {
              "properties": {
                "text": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "strict": true,
          },
          "type": "json_schema",
        },
        "seed": 42,
        "service_tier": "auto",
        "stop": [
          "END",
        ],
        "store": false,
        "stream": true,
        "stream_options": {
          "include_obfuscation": false,
          "include_usage": true,
        },
        "temperature": 0.7,
        "tool_choice": "auto",
        "tools": [
          {
            "function": {
              "description": "Current weather",
              "name": "get_weather",
              "parameters": {
                "properties": {
                  "city": {
                    "type": "string",
                  },
                },
                "required": [
                  "city",
                ],
                "type": "object",
              },
              "strict": true,
            },
            "type": "function",
          },
          {
            "function": {
              "name": "get_time",
              "parameters": {
                "properties": {},
                "type": "object",
              },
            },
            "type": "function",
          },
          {
            "custom": {
              "description": "SQL on the travel database",
              "name": "run_sql",
            },
            "type": "custom",
          },
        ],
        "top_p": 0.9,
        "user": "user-1234",
        "web_search_options": {
          "search_context_size": "low",
        },
      }
    `);
  });

  test('a request decoded from another protocol, with what chat completions cannot say recorded', () => {
    const { body, losses } = encode(fromAnthropic);
    expect(body).toMatchInlineSnapshot(`
      {
        "max_completion_tokens": 4096,
        "messages": [
          {
            "content": "You are terse.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "Look at this.",
                "type": "text",
              },
              {
                "image_url": {
                  "url": "data:image/jpeg;base64,/9j/4AAQ",
                },
                "type": "image_url",
              },
            ],
            "role": "user",
          },
          {
            "content": "Taking a screenshot.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{}",
                  "name": "screenshot",
                },
                "id": "toolu_01A",
                "type": "function",
              },
            ],
          },
          {
            "content": "Screenshot taken.",
            "role": "tool",
            "tool_call_id": "toolu_01A",
          },
          {
            "content": [
              {
                "image_url": {
                  "url": "data:image/png;base64,iVBORw0KGgo=",
                },
                "type": "image_url",
              },
              {
                "text": "What do you see?",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "gpt-4o-2024-08-06",
        "reasoning_effort": "high",
        "stop": [
          "

      Human:",
        ],
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
        "temperature": 1,
        "tool_choice": "required",
        "tools": [
          {
            "function": {
              "name": "screenshot",
              "parameters": {
                "properties": {},
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
        "user": "user-7",
        "web_search_options": {},
      }
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "system[0].cache_control",
          "reason": "chat completions upstreams cache prompt prefixes implicitly",
        },
        {
          "kind": "dropped",
          "path": "messages[0].parts[0].cache_control",
          "reason": "chat completions upstreams cache prompt prefixes implicitly",
        },
        {
          "kind": "dropped",
          "path": "messages[0].parts[2]",
          "reason": "chat completions takes application/pdf files only inline or by file id, not by link",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[0]",
          "reason": "chat completions takes no reasoning back; its signature is lost",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[1]",
          "reason": "chat completions takes no reasoning back; its signature is lost",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[0].isError",
          "reason": "tool messages have no error flag",
        },
        {
          "kind": "coerced",
          "path": "messages[2].parts[0].content[1]",
          "reason": "tool messages hold text only: the file follows in a user message",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[2]",
          "reason": "a raw block of anthropic-messages has no chat completions form",
        },
        {
          "kind": "dropped",
          "path": "tools[0].cache_control",
          "reason": "chat completions tools take no cache marker",
        },
        {
          "kind": "coerced",
          "path": "tools[1]",
          "reason": "the anthropic-messages web search tool goes as web_search_options without its settings",
        },
        {
          "kind": "dropped",
          "path": "tools[2]",
          "reason": "the anthropic-messages provider tool has no chat completions form",
        },
        {
          "kind": "dropped",
          "path": "topK",
          "reason": "chat completions has no top_k",
        },
        {
          "kind": "coerced",
          "path": "reasoning.budgetTokens",
          "reason": "a budget of 10000 tokens goes as reasoning_effort high",
        },
      ]
    `);
  });

  test('streams always ask the upstream for usage, keeping the client’s other stream options', () => {
    expect(encode(base({ stream: true })).body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const withOptions = base({
      stream: true,
      extensions: { 'openai-chat': { fields: { stream_options: { include_obfuscation: false } } } },
    });
    expect(encode(withOptions).body.stream_options).toEqual({
      include_obfuscation: false,
      include_usage: true,
    });
    expect(encode(base()).body).not.toHaveProperty('stream');
    expect(encode(base()).body).not.toHaveProperty('stream_options');
  });

  test('the output cap goes as max_completion_tokens unless the client used max_tokens', () => {
    expect(encode(base({ maxOutputTokens: 100 })).body).toMatchObject({ max_completion_tokens: 100 });
    const legacy = base({
      maxOutputTokens: 100,
      extensions: { 'openai-chat': { maxTokensField: 'max_tokens' } },
    });
    expect(encode(legacy).body).toMatchObject({ max_tokens: 100 });
    expect(encode(legacy).body).not.toHaveProperty('max_completion_tokens');
  });

  test.each<[number, string]>([
    [0, 'none'],
    [1024, 'minimal'],
    [2000, 'low'],
    [8192, 'medium'],
    [16000, 'high'],
    [32768, 'xhigh'],
    [64000, 'xhigh'],
  ])('a thinking budget of %i tokens goes as reasoning_effort %s (recorded)', (budgetTokens, effort) => {
    const { body, losses } = encode(base({ reasoning: { budgetTokens } }));
    expect(body.reasoning_effort).toBe(effort);
    expect(losses).toEqual([
      {
        path: 'reasoning.budgetTokens',
        kind: 'coerced',
        reason: `a budget of ${budgetTokens} tokens goes as reasoning_effort ${effort}`,
      },
    ]);
  });

  test('an effort reaches the upstream as reasoning_effort; reasoning switches it cannot express are recorded', () => {
    expect(encode(base({ reasoning: { effort: 'low' } }))).toEqual({
      body: expect.objectContaining({ reasoning_effort: 'low' }) as unknown,
      losses: [],
    });
    const { body, losses } = encode(
      base({ reasoning: { enabled: false, includeThoughts: true, summary: 'auto' } }),
    );
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(losses.map((loss) => loss.path)).toEqual([
      'reasoning.enabled',
      'reasoning.includeThoughts',
      'reasoning.summary',
    ]);
  });

  test('tool_choice and parallel_tool_calls go only with tools', () => {
    const { body, losses } = encode(
      base({ toolChoice: { type: 'tool', name: 'f' }, parallelToolCalls: false }),
    );
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(losses).toEqual([
      { path: 'toolChoice', kind: 'dropped', reason: 'chat completions takes tool_choice only with tools' },
    ]);
  });

  test('cache markers become prompt_cache_breakpoint only for a chat client that wrote them', () => {
    const marked = base({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'prefix', cacheControl: { type: 'ephemeral' } }] },
      ],
      extensions: { 'openai-chat': { promptCacheBreakpoints: true } },
    });
    expect(encode(marked)).toEqual({
      body: expect.objectContaining({
        messages: [
          {
            role: 'user',
            content: [{ type: 'text', text: 'prefix', prompt_cache_breakpoint: { mode: 'explicit' } }],
          },
        ],
      }) as unknown,
      losses: [],
    });
  });

  test('audio and files chat completions cannot carry are dropped and recorded', () => {
    const { body, losses } = encode(
      base({
        messages: [
          {
            role: 'user',
            parts: [
              { type: 'file', mediaType: 'audio/ogg', source: { kind: 'base64', data: 'T2dn' } },
              { type: 'file', mediaType: 'audio/wav', source: { kind: 'url', url: 'https://a/b.wav' } },
              {
                type: 'file',
                mediaType: 'image/png',
                filename: 'a.png',
                source: { kind: 'url', url: 'https://a/b.png' },
              },
              {
                type: 'file',
                mediaType: 'text/plain',
                detail: 'low',
                source: { kind: 'file-id', fileId: 'file-1' },
              },
            ],
          },
        ],
      }),
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://a/b.png' } },
          { type: 'file', file: { file_id: 'file-1' } },
        ],
      },
    ]);
    expect(losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "messages[0].parts[0]",
          "reason": "chat completions takes audio only as inline wav or mp3 data, not audio/ogg by base64",
        },
        {
          "kind": "dropped",
          "path": "messages[0].parts[1]",
          "reason": "chat completions takes audio only as inline wav or mp3 data, not audio/wav by url",
        },
        {
          "kind": "dropped",
          "path": "messages[0].parts[2].filename",
          "reason": "image_url has no file name",
        },
        {
          "kind": "dropped",
          "path": "messages[0].parts[3].detail",
          "reason": "only image_url parts have a detail level",
        },
      ]
    `);
  });

  test('a canonical system message in the conversation goes as system, or developer when it was one', () => {
    const messages: CanonicalRequest['messages'] = [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], name: 'ops' },
    ];
    expect(encode(base({ messages })).body.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'Be brief.', name: 'ops' },
    ]);
    const developer = base({ messages, extensions: { 'openai-chat': { developerMessages: [1] } } });
    expect((encode(developer).body.messages as { role: string }[])[1]?.role).toBe('developer');
  });
});
