import type { GenerateContentResponse } from '@google/genai';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_PNG_BASE64 } from '../fakes/fake-image-bytes.js';
import { isIssuedThoughtSignature, issueThoughtSignature } from '../fakes/gemini-generate-reply.js';
import {
  expectVertexRequest,
  GEMINI_COST,
  GEMINI_UPSTREAM,
  startVertexFixture,
  VERTEX_TEXT,
  vertexPath,
  type VertexFixture,
} from './vertex-fixture.js';

/** A Gemini model on a `vertex` channel (admin-api section 5), driven by the official SDKs. */

let fx: VertexFixture;
beforeAll(async () => {
  fx = await startVertexFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const model = 'vx-gemini';
const generate = vertexPath('google', GEMINI_UPSTREAM, 'generateContent');
const streamGenerate = vertexPath('google', GEMINI_UPSTREAM, 'streamGenerateContent?alt=sse');
const expectRequest = (url: string) => expectVertexRequest(fx.vertex, fx.vertex.requests[0], { url });
const sentBody = () => fx.vertex.requests[0]?.body as Record<string, unknown>;

async function expectBilled(expected: { endpoint: string; stream: boolean }) {
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    ...expected,
    model,
    channel_id: fx.channels.vertex,
    status_code: 200,
    prompt_tokens: 20,
    completion_tokens: 12,
    cached_tokens: 8,
    reasoning_tokens: 5,
    error: null,
  });
  expect(log?.cost).toBeCloseTo(GEMINI_COST, 12);
}

describe('@google/genai, same protocol', () => {
  const request = {
    model,
    contents: 'Hello?',
    config: { systemInstruction: 'Be terse.', temperature: 0.2, maxOutputTokens: 100 },
  };
  const expectedBody = {
    contents: [{ role: 'user', parts: [{ text: 'Hello?' }] }],
    systemInstruction: { role: 'user', parts: [{ text: 'Be terse.' }] },
    generationConfig: { temperature: 0.2, maxOutputTokens: 100 },
  };

  it('generateContent: the exact body on the project path with the issued token, parts unchanged', async () => {
    const reply = await fx.google.models.generateContent(request);
    expectRequest(generate);
    expect(sentBody()).toEqual(expectedBody);
    expect(reply.candidates?.[0]?.content?.parts).toEqual([
      {
        text: VERTEX_TEXT,
        thoughtSignature: issueThoughtSignature(`${reply.responseId}:text`),
      },
    ]);
    expect(reply.usageMetadata).toMatchObject({ promptTokenCount: 20, thoughtsTokenCount: 5 });
    await expectBilled({ endpoint: 'generate-content', stream: false });
  });

  it('generateContentStream: streamGenerateContent?alt=sse, every chunk as Vertex sent it', async () => {
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await fx.google.models.generateContentStream(request)) chunks.push(chunk);
    expectRequest(streamGenerate);
    expect(sentBody()).toEqual(expectedBody);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(VERTEX_TEXT);
    const responseId = chunks[0]?.responseId;
    expect(chunks[0]?.candidates?.[0]?.content?.parts).toEqual([
      { text: 'Hello ', thoughtSignature: issueThoughtSignature(`${responseId}:text`) },
    ]);
    expect(chunks.slice(1).map((chunk) => chunk.candidates?.[0]?.content?.parts)).toEqual([
      [{ text: 'from ' }],
      [{ text: 'fake ' }],
      [{ text: 'Vertex.' }],
    ]);
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    await expectBilled({ endpoint: 'stream-generate-content', stream: true });
  });
});

describe('openai chat completions, converted to generateContent', () => {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello?' }];

  it('JSON', async () => {
    const completion = await fx.openai.chat.completions.create({ model, messages });
    expect(completion.choices[0]?.message.content).toBe(VERTEX_TEXT);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    expectRequest(generate);
    expect(sentBody()).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Hello?' }] }] });
    await expectBilled({ endpoint: 'chat-completions', stream: false });
  });

  it('stream', async () => {
    const stream = await fx.openai.chat.completions.create({
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(VERTEX_TEXT);
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    expectRequest(streamGenerate);
    await expectBilled({ endpoint: 'chat-completions', stream: true });
  });

  it('a function call round trip: the call and its result reach Vertex as Gemini parts', async () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
      },
    ];
    const ask: OpenAI.Chat.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await fx.openai.chat.completions.create({ model, messages: [ask], tools });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function).toEqual({
      name: 'get_weather',
      arguments: '{"query":"weather in Paris"}',
    });
    expect(sentBody().tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            parametersJsonSchema: { type: 'object', properties: { query: { type: 'string' } } },
          },
        ],
      },
    ]);

    fx.clear();
    fx.vertex.script({ type: 'reply', toolCall: false, text: 'Sunny, 24 degrees.' });
    const second = await fx.openai.chat.completions.create({
      model,
      tools,
      messages: [
        ask,
        first.choices[0]?.message as OpenAI.Chat.ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: call?.id ?? '', content: '{"temperature":24}' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('Sunny, 24 degrees.');
    expectRequest(generate);
    // The call goes back with the thought signature Vertex gave it.
    const contents = sentBody().contents as { parts: Record<string, unknown>[] }[];
    const signature = contents[1]?.parts[0]?.thoughtSignature;
    expect(typeof signature === 'string' && isIssuedThoughtSignature(signature)).toBe(true);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { query: 'weather in Paris' } },
            thoughtSignature: signature,
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 24 } } }],
      },
    ]);
  });

  it('an image input: a base64 data URL becomes inlineData', async () => {
    await fx.openai.chat.completions.create({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${FAKE_PNG_BASE64}` } },
          ],
        },
      ],
    });
    expectRequest(generate);
    expect(sentBody().contents).toEqual([
      {
        role: 'user',
        parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: FAKE_PNG_BASE64 } }],
      },
    ]);
  });
});

describe('openai responses, converted', () => {
  it('JSON', async () => {
    const response = await fx.openai.responses.create({ model, input: 'Hello?' });
    expect(response.output_text).toBe(VERTEX_TEXT);
    expectRequest(generate);
    await expectBilled({ endpoint: 'responses', stream: false });
  });

  it('thinking: thought parts become a reasoning item with a summary', async () => {
    const response = await fx.openai.responses.create({
      model,
      input: 'Hello?',
      reasoning: { effort: 'low', summary: 'auto' },
    });
    expect(sentBody().generationConfig).toMatchObject({ thinkingConfig: { includeThoughts: true } });
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: 'Let me think about that.' }]);
    expect(response.output_text).toBe(VERTEX_TEXT);
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(5);
  });
});

describe('anthropic messages, converted', () => {
  it('stream, with thinking: thought parts become a thinking block', async () => {
    const stream = fx.anthropic.messages.stream({
      model,
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    const message = await stream.finalMessage();
    // The text part's thought signature rides in an empty thinking block, to go back with the turn.
    expect(message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'Let me think about that.',
        signature: expect.stringMatching(/^gemini:/) as unknown,
      },
      { type: 'thinking', thinking: '', signature: expect.stringMatching(/^gemini:/) as unknown },
      { type: 'text', text: VERTEX_TEXT, citations: null },
    ]);
    expectRequest(streamGenerate);
    expect(sentBody().generationConfig).toMatchObject({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
    });
    await expectBilled({ endpoint: 'messages', stream: true });
  });
});
