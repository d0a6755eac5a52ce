import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest, ReasoningOptions } from '../../../src/ir/request.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { fixtureJson } from './helpers.js';

const options = (losses = new LossLog()) => ({ losses, defaultMaxTokens: 8192 });

function request(fields: Partial<CanonicalRequest>): CanonicalRequest {
  return {
    model: 'gemini-2.5-flash',
    system: [],
    messages: [],
    tools: [],
    stream: false,
    extensions: {},
    ...fields,
  };
}

describe('gemini encodeRequest', () => {
  it('gives a Gemini client its own request back, parameters as parametersJsonSchema', () => {
    const losses = new LossLog();
    const decoded = geminiCodec.decodeRequest(fixtureJson('request-full.json'), { losses });
    expect(geminiCodec.encodeRequest(decoded, options(losses))).toMatchInlineSnapshot(`
      {
        "cachedContent": "cachedContents/abc123",
        "contents": [
          {
            "parts": [
              {
                "text": "What is in this picture, and where can I see the original?",
              },
              {
                "inlineData": {
                  "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==",
                  "mimeType": "image/png",
                },
              },
              {
                "fileData": {
                  "displayName": "itinerary.pdf",
                  "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/itinerary-9x2",
                  "mimeType": "application/pdf",
                },
              },
            ],
            "role": "user",
          },
        ],
        "generationConfig": {
          "candidateCount": 1,
          "frequencyPenalty": 0.2,
          "maxOutputTokens": 2048,
          "presencePenalty": 0.1,
          "responseJsonSchema": {
            "properties": {
              "answer": {
                "type": "string",
              },
              "confidence": {
                "type": [
                  "number",
                  "null",
                ],
              },
            },
            "required": [
              "answer",
            ],
            "type": "object",
          },
          "responseMimeType": "application/json",
          "responseModalities": [
            "TEXT",
          ],
          "seed": 7,
          "stopSequences": [
            "END",
          ],
          "temperature": 0.4,
          "thinkingConfig": {
            "includeThoughts": true,
            "thinkingBudget": 2048,
          },
          "topK": 40,
          "topP": 0.9,
        },
        "labels": {
          "team": "travel",
        },
        "safetySettings": [
          {
            "category": "HARM_CATEGORY_HARASSMENT",
            "threshold": "BLOCK_ONLY_HIGH",
          },
        ],
        "systemInstruction": {
          "parts": [
            {
              "text": "You are a travel assistant.",
            },
            {
              "text": "Answer in one paragraph.",
            },
          ],
        },
        "toolConfig": {
          "functionCallingConfig": {
            "allowedFunctionNames": [
              "find_museum",
            ],
            "mode": "ANY",
          },
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "description": "Find a museum by city.",
                "name": "find_museum",
                "parametersJsonSchema": {
                  "properties": {
                    "city": {
                      "description": "City name",
                      "type": "string",
                    },
                    "open_now": {
                      "type": [
                        "boolean",
                        "null",
                      ],
                    },
                    "tags": {
                      "items": {
                        "enum": [
                          "art",
                          "history",
                        ],
                        "type": "string",
                      },
                      "type": "array",
                    },
                  },
                  "propertyOrdering": [
                    "city",
                    "open_now",
                    "tags",
                  ],
                  "required": [
                    "city",
                  ],
                  "type": "object",
                },
              },
              {
                "behavior": "BLOCKING",
                "description": "Book a ticket.",
                "name": "book_ticket",
                "parametersJsonSchema": {
                  "additionalProperties": false,
                  "properties": {
                    "count": {
                      "minimum": 1,
                      "type": "integer",
                    },
                    "museum_id": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "museum_id",
                  ],
                  "type": "object",
                },
              },
              {
                "name": "current_time",
              },
            ],
          },
          {
            "googleSearch": {},
          },
          {
            "codeExecution": {},
          },
        ],
      }
    `);
    expect(losses.losses).toEqual([]);
  });

  it('sends a replayed tool conversation back with its signatures where Gemini put them', () => {
    const losses = new LossLog();
    const decoded = geminiCodec.decodeRequest(fixtureJson('request-tool-history.json'), { losses });
    expect(geminiCodec.encodeRequest(decoded, options(losses))).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "Weather in Paris and Tokyo? Then book whichever is warmer.",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "text": "**Planning**

      I need the weather in both cities before deciding.",
                "thought": true,
              },
              {
                "functionCall": {
                  "args": {
                    "city": "Paris",
                  },
                  "name": "get_weather",
                },
                "thoughtSignature": "CpwBAVKhc7lMhz4uF0C2bBSaJ3qGh8sK1bWnqg==",
              },
              {
                "functionCall": {
                  "args": {
                    "city": "Tokyo",
                  },
                  "name": "get_weather",
                },
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "name": "get_weather",
                  "response": {
                    "celsius": 18,
                    "city": "Paris",
                  },
                },
              },
              {
                "functionResponse": {
                  "name": "get_weather",
                  "response": {
                    "output": "Tokyo: 24C",
                  },
                },
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "text": "Tokyo is warmer. ",
                "thoughtSignature": "Ei8KLQFSoXO5Y2lnbmF0dXJlLW9uLXRleHQ=",
              },
              {
                "text": "Booking now.",
              },
              {
                "functionCall": {
                  "args": {
                    "city": "Tokyo",
                  },
                  "name": "book_trip",
                },
                "thoughtSignature": "EjQKMgFSoXO5Ym9vaw==",
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "name": "book_trip",
                  "response": {
                    "error": "sold out",
                  },
                },
              },
              {
                "text": "Try the next weekend instead.",
              },
            ],
            "role": "user",
          },
        ],
        "generationConfig": {
          "thinkingConfig": {
            "includeThoughts": true,
            "thinkingLevel": "HIGH",
          },
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "name": "get_weather",
                "parametersJsonSchema": {
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
              },
              {
                "name": "book_trip",
                "parametersJsonSchema": {
                  "properties": {
                    "city": {
                      "type": "string",
                    },
                  },
                  "type": "object",
                },
              },
            ],
          },
        ],
      }
    `);
    expect(losses.losses).toEqual([]);
  });

  it('sends function call ids only when they came from a Gemini client', () => {
    const decoded = geminiCodec.decodeRequest(fixtureJson('request-with-ids.json'), {
      losses: new LossLog(),
    });
    const body = geminiCodec.encodeRequest(decoded, options());
    expect(body.contents).toMatchInlineSnapshot(`
      [
        {
          "parts": [
            {
              "text": "Add 2 and 3, and multiply 4 by 5.",
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "functionCall": {
                "args": {
                  "a": 2,
                  "b": 3,
                  "op": "add",
                },
                "id": "fc-add-1",
                "name": "calc",
              },
              "thoughtSignature": "skip_thought_signature_validator",
            },
            {
              "functionCall": {
                "args": {
                  "a": 4,
                  "b": 5,
                  "op": "mul",
                },
                "id": "fc-mul-2",
                "name": "calc",
              },
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "id": "fc-mul-2",
                "name": "calc",
                "response": {
                  "output": "20",
                },
              },
            },
            {
              "functionResponse": {
                "id": "fc-add-1",
                "name": "calc",
                "response": {
                  "output": "5",
                },
              },
            },
          ],
          "role": "user",
        },
      ]
    `);
    const foreign = geminiCodec.encodeRequest({ ...decoded, extensions: {} }, options());
    expect(JSON.stringify(foreign.contents)).not.toContain('"id"');
  });

  it('converts a request written for another protocol, recording every loss', () => {
    const losses = new LossLog();
    const body = geminiCodec.encodeRequest(
      request({
        system: [{ type: 'text', text: 'Be brief.', cacheControl: { type: 'ephemeral' } }],
        messages: [
          { role: 'system', parts: [{ type: 'text', text: 'Use metric units.' }] },
          {
            role: 'user',
            name: 'alice',
            parts: [
              { type: 'text', text: 'Weather here?' },
              {
                type: 'file',
                mediaType: 'image/*',
                source: { kind: 'base64', data: '/9j/4AAQSkZJRg' },
                detail: 'high',
              },
              { type: 'file', mediaType: 'application/pdf', source: { kind: 'file-id', fileId: 'file-abc' } },
            ],
          },
          {
            role: 'assistant',
            parts: [
              {
                type: 'reasoning',
                text: 'Signed thinking.',
                signature: { issuer: 'anthropic', value: 'sig-anthropic' },
              },
              { type: 'reasoning', text: 'Unsigned thinking.' },
              { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'opaque' } },
              { type: 'text', text: 'Checking.' },
              { type: 'tool-call', id: 'call_abc', name: 'get_weather', arguments: '{"city":"Oslo"}' },
              { type: 'tool-call', id: 'call_def', name: 'get_time', arguments: '{"tz": Oslo' },
            ],
          },
          {
            role: 'tool',
            parts: [
              {
                type: 'tool-result',
                toolCallId: 'call_abc',
                content: [{ type: 'text', text: '{"celsius":3}' }],
              },
            ],
          },
          {
            role: 'tool',
            parts: [
              {
                type: 'tool-result',
                toolCallId: 'call_def',
                content: [
                  { type: 'text', text: 'clock broken' },
                  { type: 'text', text: 'try later' },
                ],
                isError: true,
              },
            ],
          },
          { role: 'user', parts: [{ type: 'text', text: 'Thanks!' }] },
        ],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            description: 'Weather by city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            strict: true,
          },
          { type: 'function', name: 'get_time', parameters: {} },
          {
            type: 'provider',
            kind: 'web-search',
            protocol: 'openai-responses',
            value: { type: 'web_search' },
          },
          {
            type: 'provider',
            kind: 'other',
            protocol: 'anthropic-messages',
            value: { type: 'bash_20250124' },
          },
        ],
        toolChoice: { type: 'required' },
        parallelToolCalls: false,
        maxOutputTokens: 1000,
        stop: ['a', 'b', 'c', 'd', 'e', 'f'],
        responseFormat: {
          type: 'json-schema',
          name: 'weather',
          description: 'A report.',
          schema: { type: 'object' },
        },
        reasoning: { effort: 'high', summary: 'auto' },
        user: 'user-42',
        extensions: { 'openai-chat': { logit_bias: { '50256': -100 } } },
      }),
      options(losses),
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "Weather here?",
              },
              {
                "inlineData": {
                  "data": "/9j/4AAQSkZJRg",
                  "mimeType": "image/jpeg",
                },
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "text": "Checking.",
              },
              {
                "functionCall": {
                  "args": {
                    "city": "Oslo",
                  },
                  "name": "get_weather",
                },
              },
              {
                "functionCall": {
                  "args": {
                    "arguments": "{"tz": Oslo",
                  },
                  "name": "get_time",
                },
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "name": "get_weather",
                  "response": {
                    "celsius": 3,
                  },
                },
              },
              {
                "functionResponse": {
                  "name": "get_time",
                  "response": {
                    "error": "clock broken
      try later",
                  },
                },
              },
              {
                "text": "Thanks!",
              },
            ],
            "role": "user",
          },
        ],
        "generationConfig": {
          "maxOutputTokens": 1000,
          "responseJsonSchema": {
            "type": "object",
          },
          "responseMimeType": "application/json",
          "stopSequences": [
            "a",
            "b",
            "c",
            "d",
            "e",
          ],
          "thinkingConfig": {
            "includeThoughts": true,
            "thinkingBudget": 24576,
          },
        },
        "systemInstruction": {
          "parts": [
            {
              "text": "Be brief.",
            },
            {
              "text": "Use metric units.",
            },
          ],
        },
        "toolConfig": {
          "functionCallingConfig": {
            "mode": "ANY",
          },
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "description": "Weather by city.",
                "name": "get_weather",
                "parametersJsonSchema": {
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
              },
              {
                "name": "get_time",
              },
            ],
          },
          {
            "googleSearch": {},
          },
        ],
      }
    `);
    expect(losses.losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "system[0].cacheControl",
          "reason": "Gemini has no prompt-cache markers",
        },
        {
          "kind": "coerced",
          "path": "messages[0]",
          "reason": "a system message moved into systemInstruction",
        },
        {
          "kind": "dropped",
          "path": "messages[1].name",
          "reason": "Gemini has no participant names",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[1].detail",
          "reason": "Gemini has no image detail setting per part",
        },
        {
          "kind": "coerced",
          "path": "messages[1].parts[1].mediaType",
          "reason": "sent as image/jpeg, read from the data",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[2]",
          "reason": "Gemini cannot read another vendor’s uploaded-file id",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[0].signature",
          "reason": "issued by anthropic; Gemini cannot verify it",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[0]",
          "reason": "reasoning without a signature cannot go back to Gemini",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[1]",
          "reason": "reasoning without a signature cannot go back to Gemini",
        },
        {
          "kind": "dropped",
          "path": "messages[2].parts[2].redactedData",
          "reason": "issued by anthropic; Gemini cannot verify it",
        },
        {
          "kind": "coerced",
          "path": "messages[2].parts[5].arguments",
          "reason": "not a JSON object; sent as {"arguments": <text>}",
        },
        {
          "kind": "coerced",
          "path": "messages[4].parts[0].content",
          "reason": "several text blocks joined into one response",
        },
        {
          "kind": "dropped",
          "path": "tools[0].strict",
          "reason": "Gemini has no strict mode for functions",
        },
        {
          "kind": "coerced",
          "path": "tools[2]",
          "reason": "openai-responses web search sent as googleSearch; its options do not carry over",
        },
        {
          "kind": "dropped",
          "path": "tools[3]",
          "reason": "a server tool of anthropic-messages that Gemini does not have",
        },
        {
          "kind": "dropped",
          "path": "parallelToolCalls",
          "reason": "Gemini cannot be told to call one function at a time",
        },
        {
          "kind": "coerced",
          "path": "stop",
          "reason": "Gemini takes at most 5 stop sequences; the rest were left out",
        },
        {
          "kind": "dropped",
          "path": "responseFormat.description",
          "reason": "Gemini has no description for a response schema",
        },
        {
          "kind": "dropped",
          "path": "user",
          "reason": "Gemini has no end-user id",
        },
      ]
    `);
  });

  it('turns a lone signature from another protocol into the signature of the call after it', () => {
    const body = geminiCodec.encodeRequest(
      request({
        messages: [
          {
            role: 'assistant',
            parts: [
              { type: 'reasoning', text: '', signature: { issuer: 'gemini', value: 'sig-for-call' } },
              { type: 'tool-call', id: 'x', name: 'f', arguments: '{}' },
            ],
          },
        ],
      }),
      options(),
    );
    expect(body.contents).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig-for-call' }] },
    ]);
  });

  it('takes the name of a tool result from its call, and joins consecutive results to one user turn', () => {
    const body = geminiCodec.encodeRequest(
      request({
        messages: [
          {
            role: 'assistant',
            parts: [
              { type: 'tool-call', id: 'a', name: 'first', arguments: '{}' },
              { type: 'tool-call', id: 'b', name: 'second', arguments: '{}' },
            ],
          },
          {
            role: 'tool',
            parts: [{ type: 'tool-result', toolCallId: 'a', content: [{ type: 'text', text: '1' }] }],
          },
          {
            role: 'tool',
            parts: [{ type: 'tool-result', toolCallId: 'b', content: [{ type: 'text', text: '2' }] }],
          },
          { role: 'user', parts: [{ type: 'text', text: 'and?' }] },
          { role: 'user', parts: [{ type: 'text', text: 'hello?' }] },
        ],
      }),
      options(),
    );
    expect(body.contents).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'first', args: {} } },
          { functionCall: { name: 'second', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'first', response: { output: '1' } } },
          { functionResponse: { name: 'second', response: { output: '2' } } },
          { text: 'and?' },
        ],
      },
      { role: 'user', parts: [{ text: 'hello?' }] },
    ]);
  });
});

describe('gemini encodeRequest: reasoning as thinkingConfig', () => {
  const thinking = (reasoning: ReasoningOptions, extensions: CanonicalRequest['extensions'] = {}) =>
    (
      geminiCodec.encodeRequest(request({ reasoning, extensions }), options()).generationConfig as
        Record<string, unknown> | undefined
    )?.thinkingConfig;

  it('maps every effort to its budget (admin-api section 4)', () => {
    const budgets = (['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const).map(
      (effort) => thinking({ effort }) as Record<string, unknown>,
    );
    // An effort asks for the thoughts back, unless it turns thinking off.
    expect(budgets).toEqual([
      { thinkingBudget: 0 },
      { thinkingBudget: 512, includeThoughts: true },
      { thinkingBudget: 1024, includeThoughts: true },
      { thinkingBudget: 8192, includeThoughts: true },
      { thinkingBudget: 24576, includeThoughts: true },
      { thinkingBudget: 32768, includeThoughts: true },
    ]);
  });

  it('turns thinking off, uses a budget, or lets the model decide, asking for thoughts when thinking is on', () => {
    expect(thinking({ enabled: false })).toEqual({ thinkingBudget: 0 });
    expect(thinking({ enabled: true, budgetTokens: 4000 })).toEqual({
      thinkingBudget: 4000,
      includeThoughts: true,
    });
    expect(thinking({ enabled: true })).toEqual({ thinkingBudget: -1, includeThoughts: true });
    expect(thinking({ includeThoughts: false, effort: 'low' })).toEqual({
      thinkingBudget: 1024,
      includeThoughts: false,
    });
  });

  it('keeps a Gemini client’s own config, unless an effort modifier changed the options', () => {
    const own = { gemini: { thinkingConfig: { thinkingLevel: 'LOW', includeThoughts: true } } };
    expect(thinking({ effort: 'low', includeThoughts: true }, own)).toEqual({
      thinkingLevel: 'LOW',
      includeThoughts: true,
    });
    expect(thinking({ effort: 'high', includeThoughts: true }, own)).toEqual({
      thinkingBudget: 24576,
      includeThoughts: true,
    });
    const budget = { gemini: { thinkingConfig: { thinkingBudget: 1000 } } };
    expect(thinking({ enabled: true, budgetTokens: 1000, effort: 'none' }, budget)).toEqual({
      thinkingBudget: 0,
    });
  });
});
