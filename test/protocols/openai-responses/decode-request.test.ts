import { describe, expect, test } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { InvalidRequestError } from '../../../src/protocols/invalid-request-error.js';
import { fixtureJson } from './sse-helpers.js';

const decode = (body: Record<string, unknown>, losses = new LossLog()) =>
  codec.decodeRequest(body, { losses });
const roundTrip = (request: CanonicalRequest) =>
  decode(codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 8192 }));

describe('decodeRequest: the recorded full request, field by field', () => {
  const losses = new LossLog();
  const request = decode(fixtureJson('request-full.json'), losses);

  test('model, instructions, sampling, stream, user', () => {
    expect(request.model).toBe('gpt-5');
    expect(request.system).toEqual([{ type: 'text', text: 'You are a travel assistant.' }]);
    expect(request.stream).toBe(true);
    expect(request.user).toBe('user-42');
    expect(request.maxOutputTokens).toBe(2048);
    expect(request.temperature).toBe(0.7);
    expect(request.topP).toBe(0.9);
    expect(request.parallelToolCalls).toBe(true);
    expect(losses.losses).toEqual([]);
  });

  test('a developer message is a system message, its wire role kept for the way back', () => {
    expect(request.messages[0]).toEqual({
      role: 'system',
      parts: [{ type: 'text', text: 'Prefer metric units.' }],
    });
    expect(request.extensions['openai-responses']?.itemDetail).toMatchObject({ systemRoles: ['developer'] });
  });

  test('user content: text, images by link, data URL and file id, files, unknown parts as raw', () => {
    const user = request.messages[1]!;
    expect(user.role).toBe('user');
    expect(user.parts).toEqual([
      { type: 'text', text: 'What is the weather in Paris? See the photo and the PDF.' },
      {
        type: 'file',
        mediaType: 'image/jpeg',
        source: { kind: 'url', url: 'https://example.com/paris.jpg' },
        detail: 'low',
      },
      {
        type: 'file',
        mediaType: 'image/png',
        source: { kind: 'base64', data: 'iVBORw0KGgo=' },
        detail: 'auto',
      },
      {
        type: 'file',
        mediaType: 'image/*',
        source: { kind: 'file-id', fileId: 'file-img123' },
        detail: 'high',
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { kind: 'base64', data: 'JVBERi0xLjQ=' },
        filename: 'forecast.pdf',
      },
      {
        type: 'file',
        mediaType: 'application/octet-stream',
        source: { kind: 'file-id', fileId: 'file-abc123' },
      },
      {
        type: 'raw',
        protocol: 'openai-responses',
        value: { content: { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } } },
      },
    ]);
  });

  test('reasoning, assistant message and function calls form one assistant message', () => {
    const assistant = request.messages[2]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call']);
    expect(assistant.parts[0]).toEqual({
      type: 'reasoning',
      text: '**Checking the weather**\n\n**Calling the tool**',
      // OpenAI's own encrypted content, unmarked, stands beside the summary like a signature.
      signature: { issuer: 'openai', value: 'gAAAAABo2TA-encrypted==' },
      extensions: {
        'openai-responses': {
          id: 'rs_68d9303e94ac819ead3d9e066f405eae03aa6e5a972b3b23',
          summary: [
            { type: 'summary_text', text: '**Checking the weather**' },
            { type: 'summary_text', text: '**Calling the tool**' },
          ],
        },
      },
    });
    expect(assistant.parts[1]).toEqual({
      type: 'text',
      text: 'Let me check.',
      extensions: {
        'openai-responses': {
          item: { id: 'msg_68d930427844819ebda216a5dcfbec4603aa6e5a972b3b23', status: 'completed' },
        },
      },
    });
    expect(assistant.parts.slice(2)).toEqual([
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
        arguments: '{"city":"Lyon"}',
      },
    ]);
    expect(request.extensions['openai-responses']?.itemDetail).toMatchObject({
      functionCalls: {
        call_5dp5Uj0Loqn1YcyIpqSq6sLX: {
          id: 'fc_68d9303fe7fc819ea999bda43617404203aa6e5a972b3b23',
          status: 'completed',
        },
      },
    });
  });

  test('function call outputs form one tool message; string and list outputs', () => {
    expect(request.messages[3]).toEqual({
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: 'call_5dp5Uj0Loqn1YcyIpqSq6sLX',
          content: [{ type: 'text', text: '18°C, sunny' }],
        },
        {
          type: 'tool-result',
          toolCallId: 'call_Xq2nR8vLk1PzTq0a9dE3fGhJ',
          content: [
            { type: 'text', text: 'Radar image:' },
            {
              type: 'file',
              mediaType: 'image/png',
              source: { kind: 'url', url: 'https://example.com/radar.png' },
              detail: 'auto',
            },
          ],
        },
      ],
    });
  });

  test('an unknown item travels whole as a raw part; the last user message stays its own', () => {
    expect(request.messages[4]).toEqual({
      role: 'assistant',
      parts: [
        {
          type: 'raw',
          protocol: 'openai-responses',
          value: {
            item: {
              type: 'web_search_call',
              id: 'ws_123',
              status: 'completed',
              action: { type: 'search', query: 'Paris weather' },
            },
          },
        },
      ],
    });
    expect(request.messages[5]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Thanks! Also compare with yesterday.' }],
    });
    expect(request.messages).toHaveLength(6);
  });

  test('tools: flat functions, web search as the canonical kind, other hosted tools whole', () => {
    expect(request.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
        strict: true,
      },
      { type: 'function', name: 'get_time', parameters: {} },
      {
        type: 'provider',
        kind: 'web-search',
        protocol: 'openai-responses',
        value: { type: 'web_search', search_context_size: 'low' },
      },
      {
        type: 'provider',
        kind: 'other',
        protocol: 'openai-responses',
        value: { type: 'file_search', vector_store_ids: ['vs_1'] },
      },
    ]);
    expect(request.extensions['openai-responses']?.itemDetail).toMatchObject({
      functionTools: { get_time: { defer_loading: true } },
    });
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  test('reasoning and text format', () => {
    expect(request.reasoning).toEqual({ effort: 'high', summary: 'detailed', includeThoughts: true });
    expect(request.responseFormat).toEqual({
      type: 'json-schema',
      name: 'weather_report',
      schema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
      strict: true,
    });
  });

  test('every field without a canonical counterpart is kept verbatim in the extensions', () => {
    const { itemDetail, ...kept } = request.extensions['openai-responses']!;
    expect(itemDetail).toBeDefined();
    expect(kept).toEqual({
      store: false,
      include: ['reasoning.encrypted_content'],
      previous_response_id: 'resp_previous',
      prompt_cache_key: 'session-1',
      prompt_cache_retention: '24h',
      truncation: 'auto',
      metadata: { ticket: 'T-1' },
      service_tier: 'flex',
      top_logprobs: 2,
      max_tool_calls: 5,
      safety_identifier: 'hash-42',
      context_management: [{ type: 'compaction', compact_threshold: 100000 }],
      prompt: { id: 'pmpt_1', variables: { city: 'Paris' } },
      client_metadata: { app: 'tests' },
      stream_options: { include_obfuscation: false },
      text: { verbosity: 'low' },
    });
  });

  test('round trip: decode(encode(decode(x))) equals decode(x)', () => {
    expect(roundTrip(request)).toEqual(request);
  });
});

describe('decodeRequest: forms and edges', () => {
  test('a string input is one user message; no input is no message', () => {
    expect(decode({ model: 'm', input: 'Hi' }).messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
    ]);
    const empty = decode({ model: 'm' });
    expect(empty.messages).toEqual([]);
    expect(empty.system).toEqual([]);
    expect(empty.stream).toBe(false);
    expect(empty.extensions).toEqual({ 'openai-responses': {} });
  });

  test('extension fields of compatible servers: stop, top_k and penalties map; the rest stays verbatim', () => {
    const request = decode({
      model: 'm',
      stop: '\n\n',
      top_k: 40,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      enable_thinking: false,
      chat_template_kwargs: { thinking: false },
      min_p: 0.1,
    });
    expect(request).toMatchObject({ stop: ['\n\n'], topK: 40, frequencyPenalty: 0.5, presencePenalty: -0.5 });
    expect(request.extensions['openai-responses']).toEqual({
      enable_thinking: false,
      chat_template_kwargs: { thinking: false },
      min_p: 0.1,
    });
    expect(roundTrip(request)).toEqual(request);
  });

  test('tool choice forms without a canonical counterpart, reasoning and text members stay verbatim', () => {
    const request = decode({
      model: 'm',
      tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'a' }] },
      reasoning: { effort: 'minimal', generate_summary: 'concise' },
      text: { format: { type: 'grammar', syntax: 'lark' } },
      instructions: [{ role: 'developer', content: 'x' }],
    });
    expect(request.toolChoice).toBeUndefined();
    expect(request.reasoning).toEqual({ effort: 'minimal' });
    expect(request.responseFormat).toBeUndefined();
    expect(request.system).toEqual([]);
    expect(request.extensions['openai-responses']).toEqual({
      tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'a' }] },
      reasoning: { generate_summary: 'concise' },
      text: { format: { type: 'grammar', syntax: 'lark' } },
      instructions: [{ role: 'developer', content: 'x' }],
    });
    expect(roundTrip(request)).toEqual(request);
  });

  test('the three tool choice modes and json_object / text formats', () => {
    for (const mode of ['auto', 'none', 'required'] as const) {
      expect(decode({ model: 'm', tool_choice: mode }).toolChoice).toEqual({ type: mode });
    }
    expect(decode({ model: 'm', text: { format: { type: 'json_object' } } }).responseFormat).toEqual({
      type: 'json-object',
    });
    expect(decode({ model: 'm', text: { format: { type: 'text' } } }).responseFormat).toEqual({
      type: 'text',
    });
  });

  test('assistant output items sent back: refusal, annotations and phase survive a round trip', () => {
    const request = decode({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'plain answer', phase: 'final_answer' },
        {
          type: 'message',
          id: 'msg_2',
          role: 'assistant',
          status: 'completed',
          content: [
            {
              type: 'output_text',
              text: 'cited',
              annotations: [
                { type: 'url_citation', url: 'https://a.example', start_index: 0, end_index: 5, title: 'A' },
              ],
            },
            { type: 'refusal', refusal: 'I cannot help with that.' },
          ],
        },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [],
          content: [{ type: 'reasoning_text', text: 'raw thoughts' }],
          encrypted_content: 'gAAAAB-rs1==',
        },
      ],
    });
    expect(request.messages[1]!.parts).toEqual([
      {
        type: 'text',
        text: 'plain answer',
        extensions: { 'openai-responses': { item: { phase: 'final_answer' } } },
      },
      {
        type: 'text',
        text: 'cited',
        extensions: {
          'openai-responses': {
            item: { id: 'msg_2', status: 'completed' },
            annotations: [
              { type: 'url_citation', url: 'https://a.example', start_index: 0, end_index: 5, title: 'A' },
            ],
          },
        },
      },
      {
        type: 'text',
        text: 'I cannot help with that.',
        extensions: { 'openai-responses': { item: { id: 'msg_2', status: 'completed' }, refusal: true } },
      },
      {
        type: 'reasoning',
        text: 'raw thoughts',
        signature: { issuer: 'openai', value: 'gAAAAB-rs1==' },
        extensions: {
          'openai-responses': { id: 'rs_1', content: [{ type: 'reasoning_text', text: 'raw thoughts' }] },
        },
      },
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  test('model: from the body, else from the context; missing is the spec error', () => {
    expect(codec.decodeRequest({ input: 'x' }, { losses: new LossLog(), model: 'from-path' }).model).toBe(
      'from-path',
    );
    expect(() => decode({ input: 'x' })).toThrow(GatewayError);
    expect(() => decode({ input: 'x' })).toThrow('Model name not specified, model name cannot be empty');
  });

  test.each([
    [{ input: 42 }, InvalidRequestError, 'input must be a string or an array'],
    [{ input: ['text'] }, InvalidRequestError, 'input[0] must be an object'],
    [{ input: [{ role: 'robot', content: 'x' }] }, InvalidRequestError, 'input[0].role must be'],
    [{ input: [{ role: 'user' }] }, GatewayError, 'field input[0].content is required'],
    [
      { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      GatewayError,
      'field input[0].call_id is required',
    ],
    [
      { input: [{ type: 'function_call_output', call_id: 'c', output: 7 }] },
      InvalidRequestError,
      'input[0].output',
    ],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', detail: 'auto' }] }] },
      GatewayError,
      'image_url is required',
    ],
    [{ tools: [{ type: 'function' }] }, GatewayError, 'field tools[0].name is required'],
    [{ temperature: 'hot' }, InvalidRequestError, 'temperature must be a number'],
    [{ max_output_tokens: 1.5 }, InvalidRequestError, 'max_output_tokens'],
    [
      { text: { format: { type: 'json_schema', schema: {} } } },
      GatewayError,
      'field text.format.name is required',
    ],
  ])('strict where the protocol requires: %j', (body, kind, message) => {
    expect(() => decode({ model: 'm', ...body })).toThrow(kind);
    expect(() => decode({ model: 'm', ...body })).toThrow(message);
  });

  test('losses on decode: an image detail with no canonical form, message members without text', () => {
    const losses = new LossLog();
    decode(
      {
        model: 'm',
        input: [
          {
            type: 'message',
            role: 'user',
            status: 'completed',
            content: [{ type: 'input_image', image_url: 'https://a.example/x.png', detail: 'original' }],
          },
        ],
      },
      losses,
    );
    expect(losses.losses).toEqual([
      { path: 'input[0].content[0].detail', kind: 'coerced', reason: expect.stringContaining('original') },
      { path: 'input[0]', kind: 'dropped', reason: expect.stringContaining('status') },
    ]);
  });

  test('a message with empty content survives a round trip', () => {
    const request = decode({
      model: 'm',
      input: [
        { role: 'user', content: [] },
        { role: 'assistant', content: '' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', parts: [] },
      { role: 'assistant', parts: [{ type: 'text', text: '' }] },
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  test('prompt_cache_breakpoint is the cache marker, restored on a round trip', () => {
    const request = decode({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [{ type: 'input_text', text: 'long', prompt_cache_breakpoint: { mode: 'explicit' } }],
        },
      ],
    });
    expect(request.messages[0]!.parts).toEqual([
      { type: 'text', text: 'long', cacheControl: { type: 'ephemeral' } },
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  test('function tools without strict keep it absent on a same-protocol round trip', () => {
    const request = decode({
      model: 'm',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
    });
    expect(request.tools).toEqual([{ type: 'function', name: 'f', parameters: { type: 'object' } }]);
    const body = codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 1 });
    expect(body.tools).toEqual([{ type: 'function', name: 'f', parameters: { type: 'object' } }]);
  });

  test('raw items join the message of their side, and come back in place', () => {
    const request = decode({
      model: 'm',
      input: [
        { type: 'item_reference', id: 'msg_old' },
        { role: 'user', content: 'a' },
        { type: 'computer_call', call_id: 'c1', action: { type: 'click' } },
        { type: 'computer_call_output', call_id: 'c1', output: { type: 'computer_screenshot' } },
        { type: 'mcp_approval_response', approval_request_id: 'r', approve: true },
      ],
    });
    expect(request.messages.map((message) => [message.role, message.parts.map((part) => part.type)])).toEqual(
      [
        ['user', ['raw']],
        ['user', ['text']],
        ['assistant', ['raw']],
        ['tool', ['raw']],
        ['user', ['raw']],
      ],
    );
    const body = codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 1 });
    expect((body.input as { type?: string }[]).map((item) => item.type ?? 'message')).toEqual([
      'item_reference',
      'message',
      'computer_call',
      'computer_call_output',
      'mcp_approval_response',
    ]);
    expect(roundTrip(request)).toEqual(request);
  });
});
