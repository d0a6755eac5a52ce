import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { InvalidRequestError } from '../../../src/protocols/invalid-request-error.js';
import { fixtureJson } from './helpers.js';

function decode(body: Record<string, unknown>, losses = new LossLog()) {
  return geminiCodec.decodeRequest(body, { losses, model: 'gemini-2.5-flash', stream: true });
}

describe('gemini decodeRequest: request-full.json', () => {
  const losses = new LossLog();
  const request = decode(fixtureJson('request-full.json'), losses);

  it('takes the model and the stream flag from the path', () => {
    expect(request.model).toBe('gemini-2.5-flash');
    expect(request.stream).toBe(true);
    expect(geminiCodec.decodeRequest({ contents: [] }, { losses: new LossLog() })).toMatchObject({
      model: '',
      stream: false,
    });
  });

  it('reads systemInstruction as system parts, ignoring its role', () => {
    expect(request.system).toEqual([
      { type: 'text', text: 'You are a travel assistant.' },
      { type: 'text', text: 'Answer in one paragraph.' },
    ]);
  });

  it('reads text, inlineData and fileData parts', () => {
    expect(request.messages).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'What is in this picture, and where can I see the original?' },
          {
            type: 'file',
            mediaType: 'image/png',
            source: { kind: 'base64', data: expect.stringMatching(/^iVBORw0KGgo/) },
          },
          {
            type: 'file',
            mediaType: 'application/pdf',
            source: {
              kind: 'url',
              url: 'https://generativelanguage.googleapis.com/v1beta/files/itinerary-9x2',
            },
            filename: 'itinerary.pdf',
          },
        ],
      },
    ]);
  });

  it('reads function declarations with JSON Schema parameters, OpenAPI ones converted', () => {
    expect(request.tools.slice(0, 3)).toEqual([
      {
        type: 'function',
        name: 'find_museum',
        description: 'Find a museum by city.',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name' },
            open_now: { type: ['boolean', 'null'] },
            tags: { type: 'array', items: { type: 'string', enum: ['art', 'history'] } },
          },
          required: ['city'],
          propertyOrdering: ['city', 'open_now', 'tags'],
        },
      },
      {
        type: 'function',
        name: 'book_ticket',
        description: 'Book a ticket.',
        parameters: {
          type: 'object',
          properties: { museum_id: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
          required: ['museum_id'],
          additionalProperties: false,
        },
      },
      { type: 'function', name: 'current_time', parameters: { type: 'object', properties: {} } },
    ]);
  });

  it('reads googleSearch as web search and other server tools as provider tools', () => {
    expect(request.tools.slice(3)).toEqual([
      { type: 'provider', kind: 'web-search', protocol: 'gemini', value: { googleSearch: {} } },
      { type: 'provider', kind: 'other', protocol: 'gemini', value: { codeExecution: {} } },
    ]);
  });

  it('reads ANY with one allowed function as a choice of that tool', () => {
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'find_museum' });
  });

  it('reads sampling from generationConfig', () => {
    expect(request).toMatchObject({
      maxOutputTokens: 2048,
      temperature: 0.4,
      topP: 0.9,
      topK: 40,
      stop: ['END'],
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
    });
  });

  it('reads application/json with responseSchema as a JSON schema response format', () => {
    expect(request.responseFormat).toEqual({
      type: 'json-schema',
      name: 'response',
      schema: {
        type: 'object',
        properties: { answer: { type: 'string' }, confidence: { type: ['number', 'null'] } },
        required: ['answer'],
      },
    });
  });

  it('reads thinkingConfig as reasoning options', () => {
    expect(request.reasoning).toEqual({ enabled: true, budgetTokens: 2048, includeThoughts: true });
  });

  it('keeps what only Gemini understands in extensions.gemini', () => {
    expect(request.extensions).toEqual({
      gemini: {
        body: {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
          cachedContent: 'cachedContents/abc123',
          labels: { team: 'travel' },
        },
        generationConfig: { candidateCount: 1, responseModalities: ['TEXT'] },
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['find_museum'] } },
        functionDeclarations: { book_ticket: { behavior: 'BLOCKING' } },
      },
    });
  });

  it('records no loss for a request it can hold whole', () => {
    expect(losses.losses).toEqual([]);
  });
});

describe('gemini decodeRequest: request-tool-history.json', () => {
  const request = decode(fixtureJson('request-tool-history.json'));
  const [user, firstTurn, results, secondTurn, failure, followUp] = request.messages;

  it('joins consecutive model contents and their thought parts into one reasoning part', () => {
    expect(request.messages).toHaveLength(6);
    expect(firstTurn?.role).toBe('assistant');
    expect(firstTurn?.parts[0]).toEqual({
      type: 'reasoning',
      text: '**Planning**\n\nI need the weather in both cities before deciding.',
      extensions: { gemini: { thought: true } },
    });
    expect(user).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Weather in Paris and Tokyo? Then book whichever is warmer.' }],
    });
  });

  it('gives function calls deterministic ids and keeps their thought signature', () => {
    expect(firstTurn?.parts.slice(1)).toEqual([
      {
        type: 'tool-call',
        id: 'call_0',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        signature: { issuer: 'gemini', value: 'CpwBAVKhc7lMhz4uF0C2bBSaJ3qGh8sK1bWnqg==' },
      },
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
    ]);
  });

  it('pairs responses without ids with the calls of the preceding model turn, in order', () => {
    expect(results).toEqual({
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: 'call_0',
          name: 'get_weather',
          content: [{ type: 'text', text: '{"city":"Paris","celsius":18}' }],
        },
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          name: 'get_weather',
          content: [{ type: 'text', text: 'Tokyo: 24C' }],
        },
      ],
    });
  });

  it('puts a signature carried by a text part on a reasoning part of its own before it', () => {
    expect(secondTurn?.parts).toEqual([
      {
        type: 'reasoning',
        text: '',
        signature: { issuer: 'gemini', value: 'Ei8KLQFSoXO5Y2lnbmF0dXJlLW9uLXRleHQ=' },
        extensions: { gemini: { thought: false } },
      },
      { type: 'text', text: 'Tokyo is warmer. ' },
      { type: 'text', text: 'Booking now.' },
      {
        type: 'tool-call',
        id: 'call_2',
        name: 'book_trip',
        arguments: '{"city":"Tokyo"}',
        signature: { issuer: 'gemini', value: 'EjQKMgFSoXO5Ym9vaw==' },
      },
    ]);
  });

  it('reads an {error} response as a failed tool result and splits the user text from it', () => {
    expect(failure).toEqual({
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: 'call_2',
          name: 'book_trip',
          content: [{ type: 'text', text: 'sold out' }],
          isError: true,
        },
      ],
    });
    expect(followUp).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Try the next weekend instead.' }],
    });
  });

  it('reads thinkingLevel as an effort', () => {
    expect(request.reasoning).toEqual({ effort: 'high', includeThoughts: true });
  });
});

describe('gemini decodeRequest: request-with-ids.json', () => {
  const request = decode(fixtureJson('request-with-ids.json'));

  it('keeps ids from the wire and pairs responses by them, whatever their order', () => {
    const calls = request.messages[1]?.parts.map((part) => (part.type === 'tool-call' ? part.id : undefined));
    expect(calls).toEqual(['fc-add-1', 'fc-mul-2']);
    expect(request.messages[2]?.parts).toEqual([
      { type: 'tool-result', toolCallId: 'fc-mul-2', name: 'calc', content: [{ type: 'text', text: '20' }] },
      { type: 'tool-result', toolCallId: 'fc-add-1', name: 'calc', content: [{ type: 'text', text: '5' }] },
    ]);
    expect(request.extensions.gemini?.functionCallIds).toEqual(['fc-add-1', 'fc-mul-2']);
  });

  it('reads a declaration without parameters, AUTO and a zero thinking budget', () => {
    expect(request.tools).toEqual([
      {
        type: 'function',
        name: 'calc',
        description: 'Arithmetic.',
        parameters: { type: 'object', properties: {} },
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'auto' });
    expect(request.reasoning).toEqual({ enabled: false, effort: 'none' });
  });
});

describe('gemini decodeRequest: edges', () => {
  it('never reuses an id the client sent when making one up', () => {
    const request = decode({
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'a', args: {} } },
            { functionCall: { id: 'call_0', name: 'b', args: {} } },
          ],
        },
      ],
    });
    expect(request.messages[0]?.parts.map((part) => (part.type === 'tool-call' ? part.id : ''))).toEqual([
      'call_1',
      'call_0',
    ]);
  });

  it('pairs a response without id by name before order', () => {
    const request = decode({
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'first', args: {} } },
            { functionCall: { name: 'second', args: {} } },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'second', response: { output: 'two' } } }] },
      ],
    });
    expect(request.messages[1]?.parts[0]).toMatchObject({ toolCallId: 'call_1', name: 'second' });
  });

  it('keeps unknown parts whole as raw parts, and multimodal function responses as files', () => {
    const executable = { executableCode: { language: 'PYTHON', code: 'print(1)' } };
    const request = decode({
      contents: [
        { role: 'model', parts: [executable, { functionCall: { name: 'snap', args: {} } }] },
        {
          role: 'function',
          parts: [
            {
              functionResponse: {
                name: 'snap',
                response: { result: { ok: true } },
                parts: [{ inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } }],
              },
            },
          ],
        },
      ],
    });
    expect(request.messages[0]?.parts[0]).toEqual({ type: 'raw', protocol: 'gemini', value: executable });
    expect(request.messages[1]?.parts[0]).toEqual({
      type: 'tool-result',
      toolCallId: 'call_0',
      name: 'snap',
      content: [
        { type: 'text', text: '{"result":{"ok":true}}' },
        { type: 'file', mediaType: 'image/jpeg', source: { kind: 'base64', data: '/9j/4AAQ' } },
      ],
    });
  });

  it('records part fields it has no place for', () => {
    const losses = new LossLog();
    decode(
      {
        contents: [
          {
            parts: [
              {
                fileData: { mimeType: 'video/mp4', fileUri: 'https://www.youtube.com/watch?v=x' },
                videoMetadata: { startOffset: '10s' },
              },
            ],
          },
        ],
      },
      losses,
    );
    expect(losses.losses).toEqual([
      {
        path: 'contents[0].parts[0].videoMetadata',
        kind: 'dropped',
        reason: 'no canonical place for this part field',
      },
    ]);
  });

  it('reads a responseJsonSchema, json without schema, text/plain and other MIME types', () => {
    const format = (generationConfig: Record<string, unknown>) => {
      const request = decode({ contents: [], generationConfig });
      return { format: request.responseFormat, rest: request.extensions.gemini?.generationConfig };
    };
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(format({ responseMimeType: 'application/json', responseJsonSchema: schema })).toEqual({
      format: { type: 'json-schema', name: 'response', schema },
      rest: undefined,
    });
    expect(format({ responseMimeType: 'application/json' })).toEqual({
      format: { type: 'json-object' },
      rest: undefined,
    });
    expect(format({ responseMimeType: 'text/plain' })).toEqual({ format: { type: 'text' }, rest: undefined });
    expect(
      format({ responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a'] } }),
    ).toEqual({
      format: undefined,
      rest: { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a'] } },
    });
  });

  it('reads tool choices and dynamic thinking', () => {
    const choice = (functionCallingConfig: Record<string, unknown>) =>
      decode({ contents: [], toolConfig: { functionCallingConfig } }).toolChoice;
    expect(choice({ mode: 'NONE' })).toEqual({ type: 'none' });
    expect(choice({ mode: 'ANY' })).toEqual({ type: 'required' });
    expect(choice({ mode: 'ANY', allowedFunctionNames: ['a', 'b'] })).toEqual({ type: 'required' });
    expect(choice({ mode: 'VALIDATED' })).toEqual({ type: 'auto' });
    expect(
      decode({ contents: [], generationConfig: { thinkingConfig: { thinkingBudget: -1 } } }).reasoning,
    ).toEqual({
      enabled: true,
    });
  });

  it('refuses what generateContent requires otherwise', () => {
    const refusal = (body: Record<string, unknown>) => {
      try {
        decode(body);
      } catch (error) {
        return error instanceof InvalidRequestError ? error.message : error;
      }
      return 'accepted';
    };
    expect(refusal({})).toBe('contents is required');
    expect(refusal({ contents: {} })).toBe('contents must be an array');
    expect(refusal({ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] })).toBe(
      'contents[0].role must be user or model',
    );
    expect(refusal({ contents: [{ role: 'user', parts: [] }] })).toBe(
      'contents[0].parts must be a non-empty array',
    );
    expect(refusal({ contents: [{ parts: [{ functionCall: { args: {} } }] }] })).toBe(
      'contents[0].parts[0] functionCall.name is required',
    );
    expect(refusal({ contents: [{ parts: [{ inlineData: { data: 'AAAA' } }] }] })).toBe(
      'contents[0].parts[0] inlineData needs mimeType and data',
    );
    expect(refusal({ contents: [], generationConfig: { temperature: 'hot' } })).toBe(
      'generationConfig.temperature must be a number',
    );
    expect(refusal({ contents: [], tools: [{ functionDeclarations: [{ description: 'nameless' }] }] })).toBe(
      'tools[0].functionDeclarations[0].name is required',
    );
  });
});
