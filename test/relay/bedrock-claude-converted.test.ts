import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_AWS_CREDENTIAL } from '../fakes/fake-bedrock.js';
import { PNG_BASE64 } from '../golden/matrix-clients.js';
import {
  bedrockPath,
  CLAUDE_ID,
  expectBilled,
  expectSignedRequest,
  startBedrockFixture,
  type BedrockFixture,
} from './bedrock-fixture.js';

/**
 * Claude on a `bedrock` channel for the other client families: chat completions, responses and
 * Gemini requests are converted to the Anthropic body InvokeModel takes, and its replies back.
 */

let fx: BedrockFixture;
beforeAll(async () => {
  fx = await startBedrockFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const bedrockText = 'Hello from fake Bedrock.';
const thinkingText = 'Let me think about that.';
const invoke = bedrockPath(CLAUDE_ID, 'invoke');
const invokeStream = bedrockPath(CLAUDE_ID, 'invoke-with-response-stream');
const keyPair = { accessKeyId: FAKE_AWS_CREDENTIAL.accessKeyId };
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const chatMessages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello?' }];
const chatTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather by city', parameters: weatherSchema },
};

describe('openai chat, converted to InvokeModel', () => {
  it('JSON: an Anthropic body on the invoke path, the reply converted, billed', async () => {
    const completion = await fx.openai.chat.completions.create({
      model: 'claude-bedrock',
      messages: [{ role: 'system', content: 'Be terse.' }, ...chatMessages],
      max_completion_tokens: 300,
      temperature: 0.5,
    });
    expect(completion.choices[0]?.message.content).toBe(bedrockText);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: invoke, ...keyPair });
    expect(received?.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 300,
      temperature: 0.5,
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'chat-completions', stream: false });
  });

  it('stream: text whole, one finish, the usage chunk, billed', async () => {
    const stream = await fx.openai.chat.completions.create({
      model: 'claude-bedrock',
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(bedrockText);
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: invokeStream, ...keyPair });
    expect(received?.body).not.toHaveProperty('stream');
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'chat-completions', stream: true });
  });

  it('tools round trip with thinking (reasoning_effort), and an image', async () => {
    const request: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: 'claude-bedrock',
      reasoning_effort: 'low',
      max_completion_tokens: 4096,
      tools: [chatTool],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather where this was taken?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
      ],
    };
    const first = await fx.openai.chat.completions.create(request);
    const message = first.choices[0]?.message;
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const [call] = message?.tool_calls ?? [];
    expect(call).toMatchObject({
      function: { name: 'get_weather', arguments: '{"query":"weather in Paris"}' },
    });
    const sent = fx.bedrock.requests[0]?.body;
    expect(sent).toMatchObject({
      thinking: { type: 'enabled' },
      tools: [{ name: 'get_weather', input_schema: weatherSchema }],
      messages: [
        {
          content: [
            { type: 'text', text: 'Weather where this was taken?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          ],
        },
      ],
    });

    if (!message || !call) throw new Error('no tool call');
    const second = await fx.openai.chat.completions.create({
      ...request,
      messages: [...request.messages, message, { role: 'tool', tool_call_id: call.id, content: '18 C' }],
    });
    expect(second.choices[0]?.message.content).toBe(bedrockText);
    const replayed = fx.bedrock.requests[1];
    expect(replayed?.refused).toBeUndefined();
    expect(replayed?.body).toMatchObject({
      messages: [
        {},
        {
          role: 'assistant',
          content: [{ type: 'thinking' }, { type: 'text' }, { type: 'tool_use', id: call.id }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id }] },
      ],
    });
  });
});

describe('openai responses, converted to InvokeModel', () => {
  it('JSON', async () => {
    const response = await fx.openai.responses.create({ model: 'claude-bedrock', input: 'Hello?' });
    expect(response.output_text).toBe(bedrockText);
    expect(response.usage).toMatchObject({ input_tokens: 20, output_tokens: 12 });
    expectSignedRequest(fx.bedrock.requests[0], { path: invoke, ...keyPair });
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'responses', stream: false });
  });

  it('stream', async () => {
    const response = await fx.openai.responses
      .stream({ model: 'claude-bedrock', input: 'Hello?', reasoning: { effort: 'low', summary: 'auto' } })
      .finalResponse();
    expect(response.output_text).toBe(bedrockText);
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.summary.map((part) => part.text).join('')).toBe(thinkingText);
    expectSignedRequest(fx.bedrock.requests[0], { path: invokeStream, ...keyPair });
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'responses', stream: true });
  });
});

describe('gemini generateContent, converted to InvokeModel', () => {
  it('JSON', async () => {
    const reply = await fx.google.models.generateContent({ model: 'claude-bedrock', contents: 'Hello?' });
    expect(reply.text).toBe(bedrockText);
    expect(reply.usageMetadata).toMatchObject({ promptTokenCount: 20, cachedContentTokenCount: 8 });
    expectSignedRequest(fx.bedrock.requests[0], { path: invoke, ...keyPair });
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'generate-content', stream: false });
  });

  it('stream, with thoughts', async () => {
    let text = '';
    let thoughts = '';
    const stream = await fx.google.models.generateContentStream({
      model: 'claude-bedrock',
      contents: 'Hello?',
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    for await (const chunk of stream)
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.thought) thoughts += part.text ?? '';
        else text += part.text ?? '';
      }
    expect({ text, thoughts }).toEqual({ text: bedrockText, thoughts: thinkingText });
    expectSignedRequest(fx.bedrock.requests[0], { path: invokeStream, ...keyPair });
    await expectBilled(fx, { model: 'claude-bedrock', endpoint: 'stream-generate-content', stream: true });
  });
});
