import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AZURE_CONTENT_FILTER_ERROR } from '../fakes/fake-azure.js';
import { bearer, send } from '../helpers/client-request.js';
import {
  DATED_VERSION,
  EXPECTED_COST,
  expectAzureRequest,
  startAzureFixture,
  type AzureFixture,
} from './azure-fixture.js';

/** Azure OpenAI channels (admin-api section 5) driven by the official SDKs through the gateway. */

let fx: AzureFixture;
beforeAll(async () => {
  fx = await startAzureFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const v1Chat = { url: '/openai/v1/chat/completions', deployment: 'chat-v1' };
const datedChat = {
  url: `/openai/deployments/chat-dated/chat/completions?api-version=${DATED_VERSION}`,
  deployment: 'chat-dated',
};
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello?' }];
const azureText = 'Hello from fake Azure OpenAI.';

async function expectBilled(expected: { model: string; endpoint: string; stream: boolean }) {
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    ...expected,
    status_code: 200,
    prompt_tokens: 20,
    completion_tokens: 12,
    cached_tokens: 8,
    error: null,
  });
  expect(log?.cost).toBeCloseTo(EXPECTED_COST, 12);
}

describe.each([
  { model: 'azure-v1', expected: v1Chat },
  { model: 'azure-dated', expected: datedChat },
])('openai chat on $model', ({ model, expected }) => {
  it('JSON: Azure wire request, the filter results tolerated, billed', async () => {
    const completion = await fx.openai.chat.completions.create({ model, messages });
    expect(completion.choices[0]?.message.content).toBe(azureText);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(fx.azure.requests).toHaveLength(1);
    expectAzureRequest(fx.azure.requests[0], expected);
    await expectBilled({ model, endpoint: 'chat-completions', stream: false });
  });

  it('stream: the empty-choices first chunk tolerated, text whole, usage billed', async () => {
    const stream = await fx.openai.chat.completions.create({
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(azureText);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expectAzureRequest(fx.azure.requests[0], expected);
    expect(fx.azure.requests[0]?.body).toMatchObject({ stream: true });
    await expectBilled({ model, endpoint: 'chat-completions', stream: true });
  });
});

describe('openai responses', () => {
  it.each([
    { model: 'azure-v1', url: '/openai/v1/responses', deployment: 'chat-v1' },
    { model: 'azure-dated', url: `/openai/responses?api-version=${DATED_VERSION}`, deployment: 'chat-dated' },
  ])('on $model: sent natively to $url', async ({ model, url, deployment }) => {
    const response = await fx.openai.responses.create({ model, input: 'Hello?' });
    expect(response.output_text).toBe(azureText);
    expectAzureRequest(fx.azure.requests[0], { url, deployment });
    await expectBilled({ model, endpoint: 'responses', stream: false });
  });

  it('stream on azure-v1', async () => {
    const response = await fx.openai.responses.stream({ model: 'azure-v1', input: 'Hello?' }).finalResponse();
    expect(response.output_text).toBe(azureText);
    expectAzureRequest(fx.azure.requests[0], { url: '/openai/v1/responses', deployment: 'chat-v1' });
    await expectBilled({ model: 'azure-v1', endpoint: 'responses', stream: true });
  });
});

describe('anthropic messages, converted to chat completions', () => {
  it('JSON on azure-v1', async () => {
    const message = await fx.anthropic.messages.create({
      model: 'azure-v1',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: azureText, citations: null }]);
    expect(message.usage.output_tokens).toBe(12);
    expectAzureRequest(fx.azure.requests[0], v1Chat);
    expect(fx.azure.requests[0]?.body).toMatchObject({ messages: [{ role: 'user', content: 'Hello?' }] });
    await expectBilled({ model: 'azure-v1', endpoint: 'messages', stream: false });
  });

  it('stream on azure-dated: the empty-choices chunk yields no block', async () => {
    const stream = fx.anthropic.messages.stream({
      model: 'azure-dated',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello?' }],
    });
    const starts: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_start') starts.push(event.content_block.type);
    });
    const message = await stream.finalMessage();
    expect(starts).toEqual(['text']);
    expect(message.content).toMatchObject([{ type: 'text', text: azureText }]);
    expect(message.stop_reason).toBe('end_turn');
    expectAzureRequest(fx.azure.requests[0], datedChat);
    await expectBilled({ model: 'azure-dated', endpoint: 'messages', stream: true });
  });
});

describe('gemini generateContent, converted to chat completions', () => {
  it.each([
    { model: 'azure-v1', expected: v1Chat },
    { model: 'azure-dated', expected: datedChat },
  ])('on $model', async ({ model, expected }) => {
    const reply = await fx.google.models.generateContent({ model, contents: 'Hello?' });
    expect(reply.text).toBe(azureText);
    expect(reply.usageMetadata).toMatchObject({
      promptTokenCount: 20,
      candidatesTokenCount: 7,
      thoughtsTokenCount: 5,
    });
    expectAzureRequest(fx.azure.requests[0], expected);
    await expectBilled({ model, endpoint: 'generate-content', stream: false });
  });

  it('stream on azure-dated', async () => {
    let text = '';
    const stream = await fx.google.models.generateContentStream({ model: 'azure-dated', contents: 'Hello?' });
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).toBe(azureText);
    expectAzureRequest(fx.azure.requests[0], datedChat);
  });
});

describe('a content filter refusal', () => {
  it('reaches a chat client as Azure sent it, status and body, and is not charged', async () => {
    fx.azure.scriptContentFilter();
    const response = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer(fx.key),
      body: { model: 'azure-v1', messages },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(AZURE_CONTENT_FILTER_ERROR);
    expect(fx.azure.requests).toHaveLength(1);
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'azure-v1', status_code: 400, cost: 0 });
  });

  it('reaches an Anthropic client as Azure sent it too (upstream errors pass through)', async () => {
    fx.azure.scriptContentFilter();
    const response = await send(fx.gw.origin, '/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
      body: { model: 'azure-dated', max_tokens: 64, messages: [{ role: 'user', content: 'Hello?' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(AZURE_CONTENT_FILTER_ERROR);
  });

  it('is not retried on another channel', async () => {
    fx.azure.scriptContentFilter();
    const response = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer(fx.key),
      body: { model: 'shared-4o', messages },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(AZURE_CONTENT_FILTER_ERROR);
    expect(fx.azure.requests).toHaveLength(1);
    expect(fx.direct.requests).toHaveLength(0);
  });

  it('the openai SDK reads its code and param', async () => {
    fx.azure.scriptContentFilter();
    await expect(fx.openai.chat.completions.create({ model: 'azure-dated', messages })).rejects.toMatchObject(
      {
        status: 400,
        code: 'content_filter',
        param: 'prompt',
      },
    );
  });
});
