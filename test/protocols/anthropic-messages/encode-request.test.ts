import { describe, expect, it } from 'vitest';
import type { Part } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest, ReasoningEffort } from '../../../src/ir/request.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { canonicalRequest, readJsonFixture } from './helpers.js';

function encode(request: CanonicalRequest, defaultMaxTokens = 8192) {
  const losses = new LossLog();
  const body = codec.encodeRequest(request, { losses, defaultMaxTokens });
  return { body, losses: losses.losses.map((loss) => `${loss.kind} ${loss.path}: ${loss.reason}`) };
}

const user = (...parts: Part[]) => ({ role: 'user' as const, parts });

describe('encodeRequest: a chat completions conversation for an Anthropic upstream', () => {
  it('fills max_tokens, merges turns, puts tool results first and maps effort, stop and web search', () => {
    const { body, losses } = encode(
      canonicalRequest({
        model: 'claude-sonnet-4-5',
        system: [
          { type: 'text', text: 'You are helpful.' },
          { type: 'text', text: 'Developer rules.' },
        ],
        messages: [
          user({ type: 'text', text: 'Weather in Paris and Rome?' }),
          {
            role: 'assistant',
            parts: [
              { type: 'text', text: '' },
              { type: 'tool-call', id: 'call_abc', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool-call', id: 'call_def', name: 'get_weather', arguments: '{"city":"Rome"}' },
            ],
          },
          {
            role: 'tool',
            parts: [
              { type: 'tool-result', toolCallId: 'call_abc', content: [{ type: 'text', text: '18C' }] },
            ],
          },
          {
            role: 'tool',
            parts: [
              { type: 'tool-result', toolCallId: 'call_def', content: [{ type: 'text', text: '24C' }] },
            ],
          },
          user({ type: 'text', text: 'And which is warmer?' }),
        ],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          {
            type: 'provider',
            kind: 'web-search',
            protocol: 'openai-chat',
            value: {
              search_context_size: 'low',
              user_location: { type: 'approximate', approximate: { country: 'FR' } },
            },
          },
        ],
        toolChoice: { type: 'auto' },
        parallelToolCalls: true,
        temperature: 0.7,
        stop: ['END'],
        reasoning: { effort: 'medium' },
        stream: true,
        user: 'user-1',
        extensions: { 'openai-chat': { logprobs: true } },
      }),
      64000,
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "max_tokens": 64000,
        "messages": [
          {
            "content": "Weather in Paris and Rome?",
            "role": "user",
          },
          {
            "content": [
              {
                "id": "call_abc",
                "input": {
                  "city": "Paris",
                },
                "name": "get_weather",
                "type": "tool_use",
              },
              {
                "id": "call_def",
                "input": {
                  "city": "Rome",
                },
                "name": "get_weather",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "18C",
                "tool_use_id": "call_abc",
                "type": "tool_result",
              },
              {
                "content": "24C",
                "tool_use_id": "call_def",
                "type": "tool_result",
              },
              {
                "text": "And which is warmer?",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "metadata": {
          "user_id": "user-1",
        },
        "model": "claude-sonnet-4-5",
        "stop_sequences": [
          "END",
        ],
        "stream": true,
        "system": [
          {
            "text": "You are helpful.",
            "type": "text",
          },
          {
            "text": "Developer rules.",
            "type": "text",
          },
        ],
        "temperature": 0.7,
        "tool_choice": {
          "disable_parallel_tool_use": false,
          "type": "auto",
        },
        "tools": [
          {
            "description": "Weather for a city",
            "input_schema": {
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
            "name": "get_weather",
          },
          {
            "name": "web_search",
            "type": "web_search_20250305",
            "user_location": {
              "country": "FR",
              "type": "approximate",
            },
          },
        ],
      }
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[1].parts[0]: Anthropic rejects empty text blocks",
        "dropped tools[1].search_context_size: no Anthropic web search setting",
        "dropped reasoning: Anthropic thinks in a tool loop only when the calling turn comes back with its signed thinking block first, and this one has none: thinking off",
        "dropped extensions.openai-chat.logprobs: no Anthropic form for this openai-chat field",
      ]
    `);
  });

  it('writes one plain system part as a string and cache-marked parts as blocks', () => {
    expect(encode(canonicalRequest({ system: [{ type: 'text', text: 'Be brief.' }] })).body.system).toBe(
      'Be brief.',
    );
    expect(
      encode(
        canonicalRequest({
          system: [{ type: 'text', text: 'Long context', cacheControl: { type: 'ephemeral', ttl: '1h' } }],
        }),
      ).body.system,
    ).toEqual([{ type: 'text', text: 'Long context', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
  });

  it('joins leading system messages to `system` and keeps later ones as system messages', () => {
    const { body } = encode(
      canonicalRequest({
        system: [{ type: 'text', text: 'A' }],
        messages: [
          { role: 'system', parts: [{ type: 'text', text: 'B' }] },
          user({ type: 'text', text: 'Hi' }),
          { role: 'system', parts: [{ type: 'text', text: 'C' }] },
          user({ type: 'text', text: 'Again' }),
        ],
      }),
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'A' },
      { type: 'text', text: 'B' },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'C' },
      { role: 'user', content: 'Again' },
    ]);
  });
});

describe('encodeRequest: reasoning', () => {
  it.each<[ReasoningEffort, unknown]>([
    ['none', { type: 'disabled' }],
    ['minimal', { type: 'enabled', budget_tokens: 1024 }],
    ['low', { type: 'enabled', budget_tokens: 2048 }],
    ['medium', { type: 'enabled', budget_tokens: 8192 }],
    ['high', { type: 'enabled', budget_tokens: 24576 }],
    ['xhigh', { type: 'enabled', budget_tokens: 32768 }],
  ])('effort %s becomes thinking %j', (effort, thinking) => {
    const { body, losses } = encode(canonicalRequest({ maxOutputTokens: 64000, reasoning: { effort } }));
    expect(body.thinking).toEqual(thinking);
    expect(losses).toEqual([]);
  });

  it('keeps the budget below max_tokens, at least 1024, and drops thinking when max_tokens leaves no room', () => {
    expect(encode(canonicalRequest({ reasoning: { effort: 'high' } }))).toEqual({
      body: expect.objectContaining({ max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 8191 } }),
      losses: ['coerced reasoning.budgetTokens: thinking budget 24576 lowered below max_tokens 8192'],
    });
    expect(encode(canonicalRequest({ maxOutputTokens: 4000, reasoning: { budgetTokens: 500 } }))).toEqual({
      body: expect.objectContaining({ thinking: { type: 'enabled', budget_tokens: 1024 } }),
      losses: ['coerced reasoning.budgetTokens: thinking budget 500 raised to the minimum 1024'],
    });
    const tight = encode(canonicalRequest({ maxOutputTokens: 1000, reasoning: { effort: 'low' } }));
    expect(tight.body.thinking).toBeUndefined();
    expect(tight.losses).toEqual([
      'dropped reasoning: max_tokens 1000 leaves no room for the minimum thinking budget 1024',
    ]);
  });

  it('drops temperature, top_k and a low top_p when thinking is on', () => {
    const { body, losses } = encode(
      canonicalRequest({
        maxOutputTokens: 4096,
        reasoning: { enabled: true, budgetTokens: 2048 },
        temperature: 0.3,
        topP: 0.5,
        topK: 5,
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
        toolChoice: { type: 'auto' },
        parallelToolCalls: false,
      }),
    );
    expect(body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('top_k');
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped temperature: Anthropic thinking requires the default temperature",
        "dropped topP: Anthropic thinking accepts top_p from 0.95 only",
        "dropped topK: Anthropic thinking accepts no top_k",
      ]
    `);
  });

  it('turns thinking off for a forced tool choice, which the client asked for explicitly', () => {
    const { body, losses } = encode(
      canonicalRequest({
        maxOutputTokens: 4096,
        reasoning: { enabled: true, budgetTokens: 2048 },
        temperature: 0.3,
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
        toolChoice: { type: 'tool', name: 'f' },
        parallelToolCalls: false,
      }),
    );
    // Otherwise: "Thinking may not be enabled when tool_choice forces tool use."
    expect(body).toMatchInlineSnapshot(`
      {
        "max_tokens": 4096,
        "messages": [
          {
            "content": "Hello",
            "role": "user",
          },
        ],
        "model": "claude-test",
        "temperature": 0.3,
        "tool_choice": {
          "disable_parallel_tool_use": true,
          "name": "f",
          "type": "tool",
        },
        "tools": [
          {
            "input_schema": {
              "type": "object",
            },
            "name": "f",
          },
        ],
      }
    `);
    expect(losses).toEqual([
      'dropped reasoning: Anthropic does not think when tool_choice forces tool use: thinking off, the forced tool choice kept',
    ]);
    const required = encode(
      canonicalRequest({
        reasoning: { effort: 'high' },
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
        toolChoice: { type: 'required' },
      }),
    );
    expect(required.body).not.toHaveProperty('thinking');
    expect(required.body.tool_choice).toEqual({ type: 'any' });
  });

  it('sends the model modifier as the effort setting to a client that uses adaptive thinking', () => {
    const decoded = codec.decodeRequest(readJsonFixture('request-claude-code.json'), {
      losses: new LossLog(),
    });
    const low = encode({ ...decoded, reasoning: { ...decoded.reasoning, effort: 'low' } });
    expect(low.body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    expect(low.losses).toEqual([]);
    const none = encode({ ...decoded, reasoning: { ...decoded.reasoning, effort: 'none' } });
    expect(none.body.thinking).toEqual({ type: 'disabled' });
    expect(none.body).not.toHaveProperty('output_config');
    const minimal = encode({ ...decoded, reasoning: { ...decoded.reasoning, effort: 'minimal' } });
    expect(minimal.body.output_config).toEqual({ effort: 'low' });
    expect(minimal.losses).toEqual(['coerced reasoning.effort: Anthropic has no minimal effort: low']);
  });

  it('sends only Anthropic-issued thinking: unsigned reasoning and other vendors’ tokens are dropped', () => {
    const { body, losses } = encode(
      canonicalRequest({
        messages: [
          user({ type: 'text', text: 'Hi' }),
          {
            role: 'assistant',
            parts: [
              { type: 'reasoning', text: 'from another vendor' },
              { type: 'reasoning', text: 'signed', signature: { issuer: 'anthropic', value: 'EqSig' } },
              { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmRedacted' } },
              { type: 'reasoning', text: 'Gemini thought', signature: { issuer: 'gemini', value: 'CiQ' } },
              { type: 'reasoning', text: '', redactedData: { issuer: 'openai', value: 'gAAAA' } },
              { type: 'text', text: 'Hello' },
              {
                type: 'tool-call',
                id: 'fc_1',
                name: 'f',
                arguments: '{}',
                signature: { issuer: 'gemini', value: 'CiQcall' },
              },
            ],
          },
          {
            role: 'tool',
            parts: [{ type: 'tool-result', toolCallId: 'fc_1', content: [{ type: 'text', text: 'ok' }] }],
          },
        ],
      }),
    );
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "Hi",
          "role": "user",
        },
        {
          "content": [
            {
              "signature": "EqSig",
              "thinking": "signed",
              "type": "thinking",
            },
            {
              "data": "EmRedacted",
              "type": "redacted_thinking",
            },
            {
              "text": "Hello",
              "type": "text",
            },
            {
              "id": "fc_1",
              "input": {},
              "name": "f",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "content": "ok",
              "tool_use_id": "fc_1",
              "type": "tool_result",
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[1].parts[0]: reasoning without a signature cannot be sent back to Anthropic",
        "dropped messages[1].parts[3]: reasoning issued by gemini cannot be sent to Anthropic",
        "dropped messages[1].parts[4]: reasoning issued by openai cannot be sent to Anthropic",
        "dropped messages[1].parts[6].signature: a tool call signature of gemini cannot be sent to Anthropic",
      ]
    `);
  });
});

describe('encodeRequest: content and settings Anthropic says differently', () => {
  it('encodes files as image and document blocks, inlining data URLs', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ';
    const { body, losses } = encode(
      canonicalRequest({
        messages: [
          user(
            {
              type: 'file',
              mediaType: 'image/*',
              source: { kind: 'url', url: 'https://example.com/a.jpg' },
              detail: 'high',
            },
            {
              type: 'file',
              mediaType: 'image/*',
              source: { kind: 'url', url: `data:image/png;base64,${png}` },
            },
            { type: 'file', mediaType: 'image/*', source: { kind: 'base64', data: png } },
            { type: 'file', mediaType: 'image/bmp', source: { kind: 'base64', data: 'Qk0=' } },
            {
              type: 'file',
              mediaType: 'application/pdf',
              source: { kind: 'url', url: 'https://example.com/a.pdf' },
              filename: 'a.pdf',
            },
            {
              type: 'file',
              mediaType: 'text/plain',
              source: { kind: 'base64', data: Buffer.from('notes ✓').toString('base64') },
            },
            { type: 'file', mediaType: 'audio/wav', source: { kind: 'base64', data: 'UklGRg==' } },
            { type: 'file', mediaType: 'application/pdf', source: { kind: 'file-id', fileId: 'file_1' } },
          ),
        ],
      }),
    );
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "source": {
                "type": "url",
                "url": "https://example.com/a.jpg",
              },
              "type": "image",
            },
            {
              "source": {
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ",
                "media_type": "image/png",
                "type": "base64",
              },
              "type": "image",
            },
            {
              "source": {
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ",
                "media_type": "image/png",
                "type": "base64",
              },
              "type": "image",
            },
            {
              "source": {
                "type": "url",
                "url": "https://example.com/a.pdf",
              },
              "title": "a.pdf",
              "type": "document",
            },
            {
              "source": {
                "data": "notes ✓",
                "media_type": "text/plain",
                "type": "text",
              },
              "type": "document",
            },
            {
              "source": {
                "file_id": "file_1",
                "type": "file",
              },
              "type": "document",
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[0].parts[0].detail: Anthropic has no image detail setting",
        "coerced messages[0].parts[2].mediaType: image type image/* sent as image/png, read from the data",
        "dropped messages[0].parts[3]: image type image/bmp is not accepted by Anthropic (jpeg, png, gif, webp)",
        "dropped messages[0].parts[6]: no Anthropic block for audio/wav by base64 (documents are PDF or plain text)",
      ]
    `);
  });

  it('maps tool choices and writes a parallel setting alone with auto', () => {
    const tools = [{ type: 'function' as const, name: 'f', parameters: {} }];
    const choice = (overrides: Partial<CanonicalRequest>) =>
      encode(canonicalRequest({ tools, ...overrides })).body.tool_choice;
    expect(choice({ toolChoice: { type: 'required' } })).toEqual({ type: 'any' });
    expect(choice({ toolChoice: { type: 'none' } })).toEqual({ type: 'none' });
    expect(choice({ toolChoice: { type: 'tool', name: 'f' } })).toEqual({ type: 'tool', name: 'f' });
    expect(choice({ parallelToolCalls: false })).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(choice({})).toBeUndefined();
    expect(encode(canonicalRequest({ tools })).body.tools).toEqual([
      { name: 'f', input_schema: { type: 'object' } },
    ]);
  });

  it('records every setting it cannot send', () => {
    const { body, losses } = encode(
      canonicalRequest({
        messages: [
          {
            role: 'user',
            name: 'alice',
            parts: [
              { type: 'text', text: 'Hi' },
              { type: 'reasoning', text: 'x' },
            ],
          },
          {
            role: 'assistant',
            parts: [
              { type: 'tool-call', id: 'call:1/x', name: 'f', arguments: '{not json' },
              {
                type: 'tool-call',
                id: 'fc_1',
                name: 'g',
                arguments: '{}',
                signature: { issuer: 'gemini', value: 'gemini-sig' },
              },
              { type: 'raw', protocol: 'openai-responses', value: { type: 'web_search_call' } },
            ],
          },
          { role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'call:1/x', content: [] }] },
        ],
        temperature: 1.5,
        seed: 7,
        frequencyPenalty: 0.5,
        presencePenalty: 0.1,
        stop: ['  ', 'STOP'],
        responseFormat: { type: 'json-object' },
        toolChoice: { type: 'required' },
        tools: [
          {
            type: 'provider',
            kind: 'other',
            protocol: 'openai-responses',
            value: { type: 'code_interpreter' },
          },
        ],
      }),
    );
    expect(body).toMatchObject({
      temperature: 1,
      stop_sequences: ['STOP'],
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1_x', name: 'f', input: {} },
            { type: 'tool_use', id: 'fc_1', name: 'g', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1_x' }] },
      ],
    });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[0].name: Anthropic messages carry no participant name",
        "dropped messages[0].parts[1]: no Anthropic block for reasoning in a user turn",
        "coerced messages[1].parts[0].id: tool call id call:1/x sent as call_1_x",
        "coerced messages[1].parts[0].arguments: tool arguments are not a JSON object: sent as {}",
        "dropped messages[1].parts[1].signature: a tool call signature of gemini cannot be sent to Anthropic",
        "dropped messages[1].parts[2]: no Anthropic form for a raw openai-responses block",
        "dropped tools[0]: no Anthropic form for this openai-responses provider tool",
        "dropped toolChoice: Anthropic accepts tool_choice only with tools",
        "coerced temperature: temperature 1.5 above Anthropic's maximum: 1",
        "dropped stop[0]: Anthropic rejects whitespace-only stop sequences",
        "dropped seed: Anthropic has no seed",
        "dropped frequencyPenalty: Anthropic has no frequency penalty",
        "dropped presencePenalty: Anthropic has no presence penalty",
        "dropped responseFormat: Anthropic has no JSON mode without a schema",
      ]
    `);
  });

  it('sends a JSON schema response format as output_config.format', () => {
    const { body, losses } = encode(
      canonicalRequest({
        responseFormat: { type: 'json-schema', name: 'answer', schema: { type: 'object' }, strict: true },
      }),
    );
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(losses).toEqual(['dropped responseFormat.name: Anthropic JSON schema formats have no name']);
  });
});
