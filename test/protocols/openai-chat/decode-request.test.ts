import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { fixtureJson } from './helpers.js';

function decode(body: Record<string, unknown>, context: { model?: string; stream?: boolean } = {}) {
  const losses = new LossLog();
  const request = openAIChatCodec.decodeRequest(body, { losses, ...context });
  return { request, losses: losses.losses };
}

const user = (content: unknown) => ({ model: 'm', messages: [{ role: 'user', content }] });

describe('decodeRequest of request-full.json', () => {
  const { request, losses } = decode(fixtureJson('request-full.json'));

  test('model, sampling, output cap, stream', () => {
    expect(request.model).toBe('claude-sonnet-4');
    expect(request.maxOutputTokens).toBe(1024);
    expect(request.temperature).toBe(0.7);
    expect(request.topP).toBe(0.9);
    expect(request.topK).toBeUndefined();
    expect(request.stop).toEqual(['END']);
    expect(request.seed).toBe(42);
    expect(request.frequencyPenalty).toBe(0.1);
    expect(request.presencePenalty).toBe(0.2);
    expect(request.user).toBe('user-1234');
    expect(request.stream).toBe(true);
    expect(losses).toEqual([]);
  });

  test('leading developer and system messages become the system parts, and how they were split is kept', () => {
    expect(request.system).toEqual([
      { type: 'text', text: 'You are a travel assistant.' },
      { type: 'text', text: 'Answer briefly.' },
    ]);
    expect(request.extensions['openai-chat']?.systemMessages).toEqual([
      { role: 'developer', parts: 1 },
      { role: 'system', parts: 1, name: 'policy' },
    ]);
  });

  test('user content parts: text, images (data URL and link, detail), audio, files', () => {
    const [first] = request.messages;
    expect(first).toEqual({
      role: 'user',
      name: 'alice',
      parts: [
        { type: 'text', text: 'What is in Paris?' },
        {
          type: 'file',
          mediaType: 'image/png',
          source: { kind: 'base64', data: 'iVBORw0KGgo=' },
          detail: 'low',
        },
        {
          type: 'file',
          mediaType: 'image/*',
          source: { kind: 'url', url: 'https://example.com/eiffel.jpg' },
        },
        { type: 'file', mediaType: 'audio/wav', source: { kind: 'base64', data: 'UklGRiQ=' } },
        {
          type: 'file',
          mediaType: 'application/pdf',
          filename: 'guide.pdf',
          source: { kind: 'base64', data: 'JVBERi0=' },
        },
        { type: 'file', mediaType: 'application/pdf', source: { kind: 'file-id', fileId: 'file-abc123' } },
      ],
    });
  });

  test('assistant reasoning_content and tool calls, then tool results', () => {
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      parts: [
        {
          type: 'reasoning',
          text: 'The user wants the weather first.',
          extensions: { 'openai-chat': { reasoningContent: true } },
        },
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'call_2', name: 'get_time', arguments: '{}' },
      ],
    });
    expect(request.messages[2]).toEqual({
      role: 'tool',
      parts: [
        { type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: '18°C, cloudy' }] },
      ],
    });
    expect(request.messages[3]).toEqual({
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: 'call_2', content: [{ type: 'text', text: '14:05' }] }],
    });
  });

  test('a later developer message stays in place as a system message, marked as developer', () => {
    expect(request.messages[4]).toEqual({
      role: 'system',
      parts: [{ type: 'text', text: 'Mention the time.' }],
    });
    expect(request.extensions['openai-chat']?.developerMessages).toEqual([4]);
    // `refusal: null` says nothing and leaves no raw part behind.
    expect(request.messages[5]).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', text: 'It is 18°C and 14:05 in Paris.' }],
    });
    expect(request.messages[6]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Thanks! Anything else?' }],
    });
    expect(request.messages).toHaveLength(7);
  });

  test('tools: functions (strict, no parameters), a custom tool, web_search_options as a web search tool', () => {
    expect(request.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Current weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: true,
      },
      { type: 'function', name: 'get_time', parameters: { type: 'object', properties: {} } },
      {
        type: 'provider',
        kind: 'other',
        protocol: 'openai-chat',
        value: { type: 'custom', custom: { name: 'run_sql', description: 'SQL on the travel database' } },
      },
      {
        type: 'provider',
        kind: 'web-search',
        protocol: 'openai-chat',
        value: { search_context_size: 'low' },
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'auto' });
    expect(request.parallelToolCalls).toBe(true);
  });

  test('response format and reasoning effort', () => {
    expect(request.responseFormat).toEqual({
      type: 'json-schema',
      name: 'answer',
      description: 'The answer',
      schema: { type: 'object', properties: { text: { type: 'string' } } },
      strict: true,
    });
    expect(request.reasoning).toEqual({ effort: 'high' });
  });

  test('fields only chat completions knows travel in the extension; include_usage stays with the relay', () => {
    expect(request.extensions['openai-chat']?.fields).toEqual({
      n: 1,
      logprobs: false,
      metadata: { trace: 'abc' },
      service_tier: 'auto',
      store: false,
      stream_options: { include_obfuscation: false },
    });
    expect(request.extensions['openai-chat']?.maxTokensField).toBeUndefined();
  });
});

describe('decodeRequest details', () => {
  test('the relay’s model and stream flag win over the body', () => {
    const { request } = decode({ ...user('hi'), stream: false }, { model: 'gpt-4o', stream: true });
    expect(request.model).toBe('gpt-4o');
    expect(request.stream).toBe(true);
  });

  test('a plain system message leaves no split record; stop as an array stays an array', () => {
    const { request } = decode({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      stop: ['a', 'b'],
    });
    expect(request.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(request.extensions).toEqual({});
    expect(request.stop).toEqual(['a', 'b']);
  });

  test('max_tokens alone is remembered; with max_completion_tokens too, the newer one rules', () => {
    const alone = decode({ ...user('hi'), max_tokens: 300 }).request;
    expect(alone.maxOutputTokens).toBe(300);
    expect(alone.extensions['openai-chat']).toEqual({ maxTokensField: 'max_tokens' });
    const both = decode({ ...user('hi'), max_tokens: 300, max_completion_tokens: 500 }).request;
    expect(both.maxOutputTokens).toBe(500);
    expect(both.extensions['openai-chat']).toEqual({ fields: { max_tokens: 300 } });
  });

  test('values the canonical form cannot hold stay verbatim for this protocol', () => {
    const toolChoice = { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } };
    const { request } = decode({
      ...user('hi'),
      reasoning_effort: 'max',
      tool_choice: toolChoice,
      response_format: { type: 'grammar', grammar: 'root ::= "x"' },
      prediction: { type: 'content', content: 'x' },
    });
    expect(request.reasoning).toBeUndefined();
    expect(request.toolChoice).toBeUndefined();
    expect(request.responseFormat).toBeUndefined();
    expect(request.extensions['openai-chat']?.fields).toEqual({
      reasoning_effort: 'max',
      tool_choice: toolChoice,
      response_format: { type: 'grammar', grammar: 'root ::= "x"' },
      prediction: { type: 'content', content: 'x' },
    });
  });

  test('named tool choice, json_object, top_k, reasoning none', () => {
    const { request } = decode({
      ...user('hi'),
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      response_format: { type: 'json_object' },
      top_k: 40,
      reasoning_effort: 'none',
    });
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(request.responseFormat).toEqual({ type: 'json-object' });
    expect(request.topK).toBe(40);
    expect(request.extensions['openai-chat']).toEqual({ topK: true });
    expect(request.reasoning).toEqual({ effort: 'none' });
  });

  test('prompt_cache_breakpoint becomes a cache marker', () => {
    const { request } = decode(
      user([{ type: 'text', text: 'long prefix', prompt_cache_breakpoint: { mode: 'explicit' } }]),
    );
    expect(request.messages[0]?.parts).toEqual([
      { type: 'text', text: 'long prefix', cacheControl: { type: 'ephemeral' } },
    ]);
    expect(request.extensions['openai-chat']).toEqual({ promptCacheBreakpoints: true });
  });

  test('data URLs: media type parameters dropped, percent-encoded payloads re-encoded as base64', () => {
    const { request } = decode(
      user([
        { type: 'image_url', image_url: { url: 'data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E' } },
        { type: 'file', file: { file_data: 'iVBORw0KGgo=', filename: 'dot.PNG' } },
        { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
      ]),
    );
    expect(request.messages[0]?.parts).toEqual([
      {
        type: 'file',
        mediaType: 'image/svg+xml',
        source: { kind: 'base64', data: Buffer.from('<svg/>').toString('base64') },
      },
      {
        type: 'file',
        mediaType: 'image/png',
        filename: 'dot.PNG',
        source: { kind: 'base64', data: 'iVBORw0KGgo=' },
      },
      { type: 'file', mediaType: 'audio/mpeg', source: { kind: 'base64', data: 'SUQz' } },
    ]);
  });

  test('unknown content parts, assistant refusals and extra message fields travel as raw parts', () => {
    const { request } = decode({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://v' } }] },
        {
          role: 'assistant',
          content: [{ type: 'refusal', refusal: 'No.' }],
          audio: { id: 'audio_1' },
        },
        { role: 'function', name: 'legacy', content: '42' },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        parts: [
          {
            type: 'raw',
            protocol: 'openai-chat',
            value: { contentPart: { type: 'video_url', video_url: { url: 'https://v' } } },
          },
        ],
      },
      {
        role: 'assistant',
        parts: [
          {
            type: 'raw',
            protocol: 'openai-chat',
            value: { contentPart: { type: 'refusal', refusal: 'No.' } },
          },
          { type: 'raw', protocol: 'openai-chat', value: { messageFields: { audio: { id: 'audio_1' } } } },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'raw',
            protocol: 'openai-chat',
            value: { message: { role: 'function', name: 'legacy', content: '42' } },
          },
        ],
      },
    ]);
  });

  test('a tool message keeps text and files; other parts cannot be a tool result and are recorded as lost', () => {
    const { request, losses } = decode({
      model: 'm',
      messages: [
        {
          role: 'tool',
          tool_call_id: 'call_9',
          name: 'lookup',
          content: [
            { type: 'text', text: 'ok' },
            { type: 'refusal', refusal: 'x' },
          ],
        },
      ],
    });
    expect(request.messages[0]?.parts).toEqual([
      { type: 'tool-result', toolCallId: 'call_9', name: 'lookup', content: [{ type: 'text', text: 'ok' }] },
      { type: 'raw', protocol: 'openai-chat', value: { messageFields: { name: 'lookup' } } },
    ]);
    expect(losses).toEqual([
      { path: 'messages[0].content[1]', kind: 'dropped', reason: 'a tool result cannot hold a raw part' },
    ]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['no messages', { model: 'm' }, 'messages must be a non-empty array'],
    ['empty messages', { model: 'm', messages: [] }, 'messages must be a non-empty array'],
    ['no model', { messages: [{ role: 'user', content: 'hi' }] }, 'model is required'],
    [
      'unknown role',
      { model: 'm', messages: [{ role: 'robot', content: 'hi' }] },
      'messages[0].role must be one of',
    ],
    ['user without content', { model: 'm', messages: [{ role: 'user' }] }, 'messages[0].content is required'],
    ['content of the wrong type', user(42), 'messages[0].content must be a string or an array'],
    ['part without text', user([{ type: 'text' }]), 'messages[0].content[0].text must be a string'],
    [
      'bad image detail',
      user([{ type: 'image_url', image_url: { url: 'x', detail: 'max' } }]),
      'detail must be',
    ],
    [
      'file without data',
      user([{ type: 'file', file: { filename: 'a.pdf' } }]),
      'must have file_data or file_id',
    ],
    [
      'tool message without id',
      { model: 'm', messages: [{ role: 'tool', content: 'x' }] },
      'messages[0].tool_call_id must be a string',
    ],
    [
      'tool call without id',
      {
        model: 'm',
        messages: [
          { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] },
        ],
      },
      'messages[0].tool_calls[0].id must be a string',
    ],
    [
      'tool call arguments as an object',
      {
        model: 'm',
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
          },
        ],
      },
      'arguments must be a JSON string',
    ],
    ['temperature as text', { ...user('hi'), temperature: 'hot' }, 'temperature must be a number'],
    ['fractional max_tokens', { ...user('hi'), max_tokens: 1.5 }, 'max_tokens must be an integer'],
    ['stop of numbers', { ...user('hi'), stop: [1] }, 'stop must be a string or an array of strings'],
    [
      'tool without name',
      { ...user('hi'), tools: [{ type: 'function', function: {} }] },
      'tools[0].function.name must be a string',
    ],
    ['unknown tool_choice', { ...user('hi'), tool_choice: 'always' }, "tool_choice must be 'auto'"],
    [
      'json_schema without name',
      { ...user('hi'), response_format: { type: 'json_schema', json_schema: {} } },
      'json_schema.name',
    ],
  ])('rejects %s', (_, body, message) => {
    expect(() => decode(body)).toThrow(message);
  });

  test('the decoded request is plain data', () => {
    const { request } = decode(fixtureJson('request-full.json'));
    expect(JSON.parse(JSON.stringify(request)) as CanonicalRequest).toEqual(request);
  });
});
