import { describe, expect, it } from 'vitest';
import type { ClientProtocolName } from '../../src/protocols/protocol-codec.js';
import { requestNeeds, type RequestNeeds } from '../../src/routing/policy/request-needs.js';

/** Request bodies in the vendors' own shapes (the SDKs' request types), one need at a time. */

const NONE: RequestNeeds = { tools: false, vision: false, jsonSchema: false };
const needs = (protocol: ClientProtocolName, body: unknown) =>
  requestNeeds(protocol, body as Record<string, unknown>);

const PNG = 'iVBORw0KGgo=';
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('requestNeeds: OpenAI chat completions', () => {
  const text = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] };

  it('needs nothing for a plain text conversation', () => {
    expect(needs('openai-chat', text)).toEqual(NONE);
    expect(
      needs('openai-chat', {
        ...text,
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        ],
        tools: [],
        functions: [],
        response_format: { type: 'json_object' },
      }),
    ).toEqual(NONE);
  });

  it('needs tools for tools and for the legacy functions', () => {
    const tool = { type: 'function', function: { name: 'weather', parameters: weatherSchema } };
    expect(needs('openai-chat', { ...text, tools: [tool] })).toEqual({ ...NONE, tools: true });
    expect(
      needs('openai-chat', { ...text, functions: [{ name: 'weather', parameters: weatherSchema }] }),
    ).toEqual({ ...NONE, tools: true });
  });

  it('needs vision for an image_url part in any message', () => {
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } };
    expect(
      needs('openai-chat', {
        ...text,
        messages: [
          { role: 'system', content: 'Describe images.' },
          { role: 'user', content: 'first turn' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] },
        ],
      }),
    ).toEqual({ ...NONE, vision: true });
  });

  it('needs a JSON schema for response_format json_schema only', () => {
    const format = {
      type: 'json_schema',
      json_schema: { name: 'weather', schema: weatherSchema, strict: true },
    };
    expect(needs('openai-chat', { ...text, response_format: format })).toEqual({ ...NONE, jsonSchema: true });
    expect(needs('openai-chat', { ...text, response_format: { type: 'text' } })).toEqual(NONE);
  });
});

describe('requestNeeds: OpenAI responses', () => {
  it('needs nothing for string input or text parts', () => {
    expect(needs('openai-responses', { model: 'gpt-5', input: 'input_image' })).toEqual(NONE);
    expect(
      needs('openai-responses', {
        model: 'gpt-5',
        instructions: 'Be brief.',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
        tools: [],
        text: { format: { type: 'json_object' } },
      }),
    ).toEqual(NONE);
  });

  it('needs tools for any tool, built-in ones included', () => {
    for (const tool of [
      { type: 'function', name: 'weather', parameters: weatherSchema, strict: true },
      { type: 'web_search' },
      { type: 'file_search', vector_store_ids: ['vs_1'] },
    ]) {
      expect(needs('openai-responses', { input: 'Hi', tools: [tool] })).toEqual({ ...NONE, tools: true });
    }
  });

  it('needs vision for input_image in a message, a tool output, an item or a prompt variable', () => {
    const image = { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' };
    const bodies = [
      { input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, image] }] },
      { input: [{ type: 'message', role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      {
        input: [
          { type: 'function_call', call_id: 'call_1', name: 'screenshot', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: [image] },
        ],
      },
      { input: [{ type: 'custom_tool_call_output', call_id: 'call_2', output: [image] }] },
      { input: [image] },
      { prompt: { id: 'pmpt_1', variables: { photo: image, name: 'Ada' } } },
    ];
    for (const body of bodies) expect(needs('openai-responses', body)).toEqual({ ...NONE, vision: true });
  });

  it('needs a JSON schema for text.format json_schema only', () => {
    const format = { type: 'json_schema', name: 'weather', schema: weatherSchema, strict: true };
    expect(needs('openai-responses', { input: 'Hi', text: { format } })).toEqual({
      ...NONE,
      jsonSchema: true,
    });
    expect(needs('openai-responses', { input: 'Hi', text: { format: { type: 'text' } } })).toEqual(NONE);
    // The chat completions member means nothing here.
    expect(needs('openai-responses', { input: 'Hi', response_format: { type: 'json_schema' } })).toEqual(
      NONE,
    );
  });
});

describe('requestNeeds: Anthropic messages', () => {
  const text = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Hello' }],
  };
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };

  it('needs nothing for a plain text conversation', () => {
    expect(needs('anthropic-messages', text)).toEqual(NONE);
    expect(
      needs('anthropic-messages', {
        ...text,
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Read this' }] },
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'image' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'image' }] },
        ],
        tools: [],
      }),
    ).toEqual(NONE);
  });

  it('needs tools for client and server tools', () => {
    for (const tool of [
      { name: 'weather', description: 'Weather', input_schema: weatherSchema },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    ]) {
      expect(needs('anthropic-messages', { ...text, tools: [tool] })).toEqual({ ...NONE, tools: true });
    }
  });

  it('needs vision for image blocks, also inside tool results and content documents', () => {
    const bodies = [
      { ...text, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }] },
      {
        ...text,
        messages: [
          { role: 'user', content: 'Take a screenshot' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [image] }] },
        ],
      },
      {
        ...text,
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'document',
                source: { type: 'content', content: [{ type: 'text', text: 'a' }, image] },
              },
            ],
          },
        ],
      },
    ];
    for (const body of bodies) expect(needs('anthropic-messages', body)).toEqual({ ...NONE, vision: true });
  });

  it('needs a JSON schema for structured outputs, GA and beta spellings', () => {
    const format = { type: 'json_schema', schema: weatherSchema };
    expect(needs('anthropic-messages', { ...text, output_config: { format } })).toEqual({
      ...NONE,
      jsonSchema: true,
    });
    expect(needs('anthropic-messages', { ...text, output_format: format })).toEqual({
      ...NONE,
      jsonSchema: true,
    });
    expect(needs('anthropic-messages', { ...text, output_config: { effort: 'low' } })).toEqual(NONE);
    expect(needs('anthropic-messages', { ...text, output_format: { type: 'text' } })).toEqual(NONE);
  });
});

describe('requestNeeds: Gemini generateContent', () => {
  const text = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

  it('needs nothing for a plain text conversation', () => {
    expect(needs('gemini', text)).toEqual(NONE);
    expect(
      needs('gemini', {
        ...text,
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Listen', inlineData: undefined }] },
          { role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }] },
          {
            role: 'user',
            parts: [{ file_data: { mime_type: 'application/pdf', file_uri: 'gs://b/a.pdf' } }],
          },
        ],
        tools: [{ functionDeclarations: [] }, {}],
        generationConfig: { responseMimeType: 'application/json', temperature: 0.2 },
      }),
    ).toEqual(NONE);
  });

  it('needs tools for function declarations and built-in tools, in both spellings', () => {
    const declaration = { name: 'weather', parameters: { type: 'OBJECT', properties: {} } };
    for (const tool of [
      { functionDeclarations: [declaration] },
      { function_declarations: [declaration] },
      { googleSearch: {} },
      { code_execution: {} },
    ]) {
      expect(needs('gemini', { ...text, tools: [tool] })).toEqual({ ...NONE, tools: true });
    }
  });

  it('needs vision for image data in contents, the system instruction and function responses', () => {
    const bodies = [
      {
        contents: [
          {
            role: 'user',
            parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
          },
        ],
      },
      { contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/jpeg', data: PNG } }] }] },
      { contents: [{ parts: [{ fileData: { mimeType: 'IMAGE/WEBP', fileUri: 'gs://bucket/a.webp' } }] }] },
      {
        contents: [
          { parts: [{ file_data: { mime_type: 'image/heic', file_uri: 'https://example.com/a' } }] },
        ],
      },
      { ...text, systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] } },
      { ...text, system_instruction: { parts: [{ inline_data: { mime_type: 'image/png', data: PNG } }] } },
      {
        contents: [
          { role: 'model', parts: [{ functionCall: { name: 'screenshot', args: {} } }] },
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  name: 'screenshot',
                  response: { ok: true },
                  parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
                },
              },
            ],
          },
        ],
      },
      {
        contents: [
          {
            parts: [
              {
                function_response: {
                  name: 'screenshot',
                  parts: [{ file_data: { mime_type: 'image/png', file_uri: 'x' } }],
                },
              },
            ],
          },
        ],
      },
    ];
    for (const body of bodies) expect(needs('gemini', body)).toEqual({ ...NONE, vision: true });
  });

  it('needs a JSON schema for any response schema member, in both spellings', () => {
    for (const [config, member] of [
      ['generationConfig', 'responseSchema'],
      ['generationConfig', 'responseJsonSchema'],
      ['generation_config', 'response_schema'],
      ['generation_config', 'response_json_schema'],
      ['generationConfig', 'response_json_schema'],
    ] as const) {
      const body = { ...text, [config]: { responseMimeType: 'application/json', [member]: weatherSchema } };
      expect(needs('gemini', body)).toEqual({ ...NONE, jsonSchema: true });
    }
    expect(needs('gemini', { ...text, generationConfig: { responseSchema: null } })).toEqual(NONE);
  });
});

describe('requestNeeds: all at once and malformed bodies', () => {
  it('reports every need a request has together', () => {
    expect(
      needs('openai-chat', {
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/a.png' } }] }],
        tools: [{ type: 'function', function: { name: 'f' } }],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } },
      }),
    ).toEqual({ tools: true, vision: true, jsonSchema: true });
  });

  const protocols: ClientProtocolName[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
  const odd = [null, 0, 1, true, 'image_url', 'input_image', [], [null], [[]], {}, { type: null }];

  it('reads a member of any wrong type as not used, and never throws', () => {
    const members = [
      'messages',
      'input',
      'contents',
      'tools',
      'functions',
      'response_format',
      'text',
      'output_format',
      'output_config',
      'generationConfig',
      'generation_config',
      'systemInstruction',
      'system_instruction',
      'prompt',
    ];
    for (const protocol of protocols) {
      for (const member of members) {
        for (const value of odd) {
          const result = needs(protocol, { [member]: value });
          // Only a non-empty array under `tools` (or `functions`) says anything by its length alone.
          expect(result.vision || result.jsonSchema).toBe(false);
        }
      }
    }
  });

  it('reads malformed nested members as not used', () => {
    for (const value of odd) {
      expect(needs('openai-chat', { messages: [value, { content: value }, { content: [value] }] })).toEqual(
        NONE,
      );
      expect(needs('openai-chat', { response_format: value })).toEqual(NONE);
      expect(
        needs('openai-responses', {
          input: [value, { content: value, output: value }, { content: [value], output: [value] }],
          text: { format: value },
          prompt: { variables: value },
        }),
      ).toEqual(NONE);
      expect(
        needs('anthropic-messages', {
          messages: [
            value,
            {
              content: [
                value,
                { type: 'tool_result', content: value },
                { type: 'tool_result', content: [value] },
              ],
            },
            {
              content: [
                { type: 'document', source: value },
                { type: 'document', source: { content: [value] } },
              ],
            },
          ],
          output_format: value,
          output_config: { format: value },
        }),
      ).toEqual(NONE);
      expect(
        needs('gemini', {
          contents: [value, { parts: value }, { parts: [value] }],
          tools: [value],
          generationConfig: value,
          generation_config: { response_schema: null },
        }),
      ).toEqual(NONE);
      expect(
        needs('gemini', {
          contents: [
            {
              parts: [
                { inlineData: value, fileData: value },
                { inlineData: { mimeType: value }, file_data: { mime_type: value } },
                { functionResponse: value },
                { functionResponse: { parts: value } },
                { function_response: { parts: [value] } },
              ],
            },
          ],
          systemInstruction: value,
        }),
      ).toEqual(NONE);
    }
  });

  it('counts a Gemini tool entry only when it declares something', () => {
    for (const tool of [
      null,
      1,
      'googleSearch',
      [],
      {},
      { functionDeclarations: [] },
      { googleSearch: null },
    ]) {
      expect(needs('gemini', { tools: [tool] })).toEqual(NONE);
    }
    expect(needs('gemini', { tools: [{}, { googleSearch: {} }] })).toEqual({ ...NONE, tools: true });
  });

  it('reads only the given protocol’s members', () => {
    const chatImage = {
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u' } }] }],
    };
    expect(needs('anthropic-messages', chatImage)).toEqual(NONE);
    expect(needs('gemini', chatImage)).toEqual(NONE);
    expect(
      needs('openai-chat', { contents: [{ parts: [{ inlineData: { mimeType: 'image/png' } }] }] }),
    ).toEqual(NONE);
    expect(needs('openai-chat', { text: { format: { type: 'json_schema' } } })).toEqual(NONE);
  });
});
