import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_AWS_CREDENTIAL, FAKE_BEDROCK_API_KEY } from '../fakes/fake-bedrock.js';
import { PNG_BASE64 } from '../golden/matrix-clients.js';
import {
  bedrockPath,
  expectBilled,
  expectSignedRequest,
  LLAMA_ID,
  NOVA_ID,
  startBedrockFixture,
  TEMPORARY_CREDENTIAL,
  type BedrockFixture,
} from './bedrock-fixture.js';

/**
 * Models other than Claude on `bedrock` channels go through the Converse API (admin-api section 5):
 * every client family is converted to a Converse body and back, JSON and streams, billed from the
 * Converse usage. Failures are in bedrock-converse-failures.test.ts.
 */

let fx: BedrockFixture;
beforeAll(async () => {
  fx = await startBedrockFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const bedrockText = 'Hello from fake Bedrock.';
const keyPair = { accessKeyId: FAKE_AWS_CREDENTIAL.accessKeyId };
const weatherSchema = {
  type: 'object' as const,
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const weatherSpec = {
  name: 'get_weather',
  description: 'Weather by city',
  inputSchema: { json: weatherSchema },
};
const hello = [{ role: 'user' as const, content: 'Hello?' }];

describe('openai chat -> Converse', () => {
  it('JSON: messages, system and inferenceConfig exactly; the reply and usage converted; billed', async () => {
    const completion = await fx.openai.chat.completions.create({
      model: 'nova-pro',
      messages: [{ role: 'system', content: 'Be terse.' }, ...hello],
      max_completion_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['END'],
    });
    expect(completion.choices[0]?.message.content).toBe(bedrockText);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 20,
      completion_tokens: 12,
      prompt_tokens_details: { cached_tokens: 8 },
    });
    expect(fx.bedrock.requests).toHaveLength(1);
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: bedrockPath(NOVA_ID, 'converse'), ...keyPair });
    expect(received?.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hello?' }] }],
      system: [{ text: 'Be terse.' }],
      inferenceConfig: { maxTokens: 300, temperature: 0.5, topP: 0.9, stopSequences: ['END'] },
    });
    await expectBilled(fx, { model: 'nova-pro', endpoint: 'chat-completions', stream: false });
  });

  it('stream: /converse-stream, text whole, one finish, the usage chunk; billed', async () => {
    const stream = await fx.openai.chat.completions.create({
      model: 'llama-3-3',
      messages: hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(bedrockText);
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(['llama-3-3']));
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: bedrockPath(LLAMA_ID, 'converse-stream'), ...keyPair });
    expect(received?.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'Hello?' }] }] });
    await expectBilled(fx, { model: 'llama-3-3', endpoint: 'chat-completions', stream: true });
  });

  it('tools round trip: toolConfig out, the call back, toolUse and toolResult on the next turn', async () => {
    const request: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: 'nova-pro',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather by city', parameters: weatherSchema },
        },
      ],
      tool_choice: 'required',
    };
    const first = await fx.openai.chat.completions.create(request);
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const message = first.choices[0]?.message;
    const call = message?.tool_calls?.[0];
    if (!message || call?.type !== 'function') throw new Error('no function call');
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"query":"weather in Paris"}' });
    expect(fx.bedrock.requests[0]?.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
      toolConfig: { tools: [{ toolSpec: weatherSpec }], toolChoice: { any: {} } },
    });

    const second = await fx.openai.chat.completions.create({
      ...request,
      tool_choice: 'auto',
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
          content: [
            { text: bedrockText },
            { toolUse: { toolUseId: call.id, name: 'get_weather', input: { query: 'weather in Paris' } } },
          ],
        },
        { role: 'user', content: [{ toolResult: { toolUseId: call.id, content: [{ text: '18 C' }] } }] },
      ],
      toolConfig: { toolChoice: { auto: {} } },
    });
  });

  it('an image: a Converse image block with the bytes', async () => {
    await fx.openai.chat.completions.create({
      model: 'nova-pro',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
      ],
    });
    expect(fx.bedrock.requests[0]?.body).toEqual({
      messages: [
        {
          role: 'user',
          content: [{ text: 'What is this?' }, { image: { format: 'png', source: { bytes: PNG_BASE64 } } }],
        },
      ],
    });
  });
});

describe('anthropic messages -> Converse', () => {
  const request: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'llama-3-3',
    max_tokens: 256,
    system: [{ type: 'text', text: 'Be terse.' }],
    stop_sequences: ['END'],
    tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: weatherSchema }],
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
  };
  const converseBody = {
    messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
    system: [{ text: 'Be terse.' }],
    inferenceConfig: { maxTokens: 256, stopSequences: ['END'] },
    toolConfig: { tools: [{ toolSpec: weatherSpec }] },
  };

  it('JSON: the Converse body exactly, the reply as an Anthropic message with its usage', async () => {
    const message = await fx.anthropic.messages.create(request);
    expect(message.model).toBe('llama-3-3');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toMatchObject([
      { type: 'text', text: bedrockText },
      { type: 'tool_use', name: 'get_weather', input: { query: 'weather in Paris' } },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 8,
      cache_read_input_tokens: 8,
      cache_creation_input_tokens: 4,
      output_tokens: 12,
    });
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: bedrockPath(LLAMA_ID, 'converse'), ...keyPair });
    expect(received?.body).toEqual(converseBody);
    await expectBilled(fx, { model: 'llama-3-3', endpoint: 'messages', stream: false });
  });

  it('stream: the Anthropic event grammar, the tool call whole, usage in message_delta', async () => {
    const stream = fx.anthropic.messages.stream(request);
    const types: string[] = [];
    stream.on('streamEvent', (event) => void types.push(event.type));
    const message = await stream.finalMessage();
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(message.content).toMatchObject([
      { type: 'text', text: bedrockText },
      { type: 'tool_use', name: 'get_weather', input: { query: 'weather in Paris' } },
    ]);
    expect(message.usage).toMatchObject({ output_tokens: 12, cache_read_input_tokens: 8 });
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, { path: bedrockPath(LLAMA_ID, 'converse-stream'), ...keyPair });
    expect(received?.body).toEqual(converseBody);
    await expectBilled(fx, { model: 'llama-3-3', endpoint: 'messages', stream: true });
  });

  it('temporary credentials sign Converse too', async () => {
    await fx.anthropic.messages.create({ model: 'nova-session', max_tokens: 16, messages: hello });
    expectSignedRequest(fx.bedrock.requests[0], {
      path: bedrockPath(NOVA_ID, 'converse'),
      accessKeyId: TEMPORARY_CREDENTIAL.accessKeyId,
      sessionToken: TEMPORARY_CREDENTIAL.sessionToken,
    });
  });

  it('and a Bedrock API key', async () => {
    await fx.anthropic.messages.create({ model: 'nova-api-key', max_tokens: 16, messages: hello });
    const [received] = fx.bedrock.requests;
    expect(received?.url).toBe(bedrockPath(NOVA_ID, 'converse'));
    expect(received?.headers.authorization).toBe(`Bearer ${FAKE_BEDROCK_API_KEY}`);
    expect(received?.refused).toBeUndefined();
  });
});

describe('openai responses -> Converse', () => {
  it('JSON', async () => {
    const response = await fx.openai.responses.create({
      model: 'nova-pro',
      instructions: 'Be terse.',
      input: 'Hello?',
      max_output_tokens: 100,
    });
    expect(response.output_text).toBe(bedrockText);
    expect(response.usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 12,
      input_tokens_details: { cached_tokens: 8 },
    });
    expect(fx.bedrock.requests[0]?.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hello?' }] }],
      system: [{ text: 'Be terse.' }],
      inferenceConfig: { maxTokens: 100 },
    });
    await expectBilled(fx, { model: 'nova-pro', endpoint: 'responses', stream: false });
  });

  it('stream', async () => {
    const response = await fx.openai.responses.stream({ model: 'nova-pro', input: 'Hello?' }).finalResponse();
    expect(response.output_text).toBe(bedrockText);
    expect(response.status).toBe('completed');
    expectSignedRequest(fx.bedrock.requests[0], {
      path: bedrockPath(NOVA_ID, 'converse-stream'),
      ...keyPair,
    });
    await expectBilled(fx, { model: 'nova-pro', endpoint: 'responses', stream: true });
  });
});

describe('gemini generateContent -> Converse', () => {
  const config = {
    systemInstruction: 'Be terse.',
    maxOutputTokens: 64,
    tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherSchema }] }],
  };

  it('JSON', async () => {
    const reply = await fx.google.models.generateContent({ model: 'nova-pro', contents: 'Hello?', config });
    expect(reply.text).toBe(bedrockText);
    expect(reply.functionCalls).toMatchObject([{ name: 'get_weather', args: { query: 'weather in Paris' } }]);
    expect(reply.usageMetadata).toMatchObject({
      promptTokenCount: 20,
      cachedContentTokenCount: 8,
      candidatesTokenCount: 12,
    });
    expect(fx.bedrock.requests[0]?.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hello?' }] }],
      system: [{ text: 'Be terse.' }],
      inferenceConfig: { maxTokens: 64 },
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: weatherSchema } } }] },
    });
    await expectBilled(fx, { model: 'nova-pro', endpoint: 'generate-content', stream: false });
  });

  it('stream', async () => {
    let text = '';
    const calls: unknown[] = [];
    const stream = await fx.google.models.generateContentStream({
      model: 'nova-pro',
      contents: 'Hello?',
      config,
    });
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      calls.push(...(chunk.functionCalls ?? []));
    }
    expect(text).toBe(bedrockText);
    expect(calls).toMatchObject([{ name: 'get_weather', args: { query: 'weather in Paris' } }]);
    expectSignedRequest(fx.bedrock.requests[0], {
      path: bedrockPath(NOVA_ID, 'converse-stream'),
      ...keyPair,
    });
    await expectBilled(fx, { model: 'nova-pro', endpoint: 'stream-generate-content', stream: true });
  });
});
