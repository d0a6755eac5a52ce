import {
  FunctionCallingConfigMode,
  GoogleGenAI,
  HarmBlockThreshold,
  HarmCategory,
  Type,
} from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { startFakeGemini } from '../../fakes/fake-gemini.js';
import type { FakeUpstream } from '../../fakes/fake-upstream.js';
import { expectStreamGrammar, serve, sseEvents } from './helpers.js';

describe('a request as @google/genai writes it', () => {
  it('decodes what models.generateContent() sends', async () => {
    const server = await serve({ contentType: 'application/json', body: '{"candidates":[]}' });
    try {
      const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.origin } });
      await client.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'get_weather', response: { output: '3C' } } }],
          },
        ],
        config: {
          systemInstruction: 'Be brief.',
          temperature: 0.2,
          maxOutputTokens: 300,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
          tools: [
            {
              functionDeclarations: [
                {
                  name: 'get_weather',
                  parameters: {
                    type: Type.OBJECT,
                    properties: { city: { type: Type.STRING } },
                    required: ['city'],
                  },
                },
              ],
            },
          ],
          toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } },
          safetySettings: [
            {
              category: HarmCategory.HARM_CATEGORY_HATE_SPEECH,
              threshold: HarmBlockThreshold.BLOCK_LOW_AND_ABOVE,
            },
          ],
        },
      });
      const body = server.requests[0]?.body as Record<string, unknown>;
      const request = geminiCodec.decodeRequest(body, { losses: new LossLog(), model: 'gemini-2.5-flash' });
      expect(request.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
      expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(request.messages[2]?.parts[0]).toMatchObject({
        toolCallId: 'call_0',
        content: [{ text: '3C' }],
      });
      expect(request.tools[0]).toEqual({
        type: 'function',
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      });
      expect(request).toMatchObject({
        temperature: 0.2,
        maxOutputTokens: 300,
        toolChoice: { type: 'auto' },
        reasoning: { enabled: true, budgetTokens: 1024, includeThoughts: true },
      });
      expect(request.extensions.gemini?.body).toEqual({
        safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_LOW_AND_ABOVE' }],
      });
    } finally {
      await server.close();
    }
  });
});

describe('against the fake Gemini upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeGemini({ apiKey: 'k' });
  });
  afterAll(async () => {
    await fake.close();
  });

  const canonical: CanonicalRequest = {
    model: 'gemini-2.5-flash',
    system: [{ type: 'text', text: 'Be brief.' }],
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
    tools: [],
    reasoning: { effort: 'low', includeThoughts: true },
    stream: false,
    extensions: {},
  };

  async function post(method: string, body: Record<string, unknown>): Promise<Response> {
    return fetch(`${fake.origin}/v1beta/models/gemini-2.5-flash:${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: JSON.stringify(body),
    });
  }

  it('encodes a request the fake accepts and decodes its reply', async () => {
    const body = geminiCodec.encodeRequest(canonical, { losses: new LossLog(), defaultMaxTokens: 8192 });
    const response = await post('generateContent', body);
    expect(response.status).toBe(200);
    const reply = geminiCodec.decodeReply(await response.json(), new LossLog());
    expect(reply.parts.map((part) => part.type)).toEqual(['reasoning', 'reasoning', 'text']);
    expect(reply.parts.at(-1)).toEqual({ type: 'text', text: 'Hello from fake Gemini.' });
    expect(reply.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    expect(reply.usage).toMatchObject({
      inputTokens: 20,
      outputTokens: 12,
      cacheReadTokens: 8,
      reasoningTokens: 5,
    });
  });

  it('decodes the fake’s stream, tool call included, by the grammar', async () => {
    const withTool: CanonicalRequest = {
      ...canonical,
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }],
    };
    const body = geminiCodec.encodeRequest(withTool, { losses: new LossLog(), defaultMaxTokens: 8192 });
    const response = await fetch(
      `${fake.origin}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
        body: JSON.stringify(body),
      },
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    const decoder = geminiCodec.createStreamDecoder(new LossLog());
    const events: StreamEvent[] = [
      ...sseEvents(bytes).flatMap((event) => decoder.push(event)),
      ...decoder.end(),
    ];
    expectStreamGrammar(events);
    expect(events.find((event) => event.type === 'tool-call-start')).toMatchObject({ name: 'lookup' });
    expect(events.find((event) => event.type === 'tool-call-end')).toHaveProperty('signature');
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 20, outputTokens: 12 },
    });
  });
});
