import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { FAKE_PNG_BASE64 } from '../fakes/fake-image-bytes.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { issueThoughtSignature } from '../fakes/gemini-generate-reply.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * Gemini's own image models (`gemini-2.5-flash-image`, `gemini-3-pro-image-preview`) on a gemini
 * channel, through generateContent: the generated image reaches each client in its protocol's form
 * (https://ai.google.dev/gemini-api/docs/image-generation). And the way back: an OpenAI-compatible
 * upstream that answers with OpenRouter's `images` reaches Gemini and Responses clients.
 */

const GEMINI_KEY = 'gemini-image-upstream-key';
const TEXT = 'Hello from fake Gemini.';
const DATA_URL = `data:image/png;base64,${FAKE_PNG_BASE64}`;
const inlineImage = { inlineData: { mimeType: 'image/png', data: FAKE_PNG_BASE64 } };
let gw: TestGateway;
let gemini: FakeUpstream;
let openai: OpenAI;
let genai: GoogleGenAI;
let anthropic: Anthropic;
let openRouter: Server;
const openRouterPaths: string[] = [];

beforeAll(async () => {
  gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  openRouter = await startOpenRouterLike();
  gw = await startTestGateway();
  await gw.admin('POST', '/channels', {
    name: 'openrouter-like',
    type: 'openrouter',
    base_url: `http://127.0.0.1:${(openRouter.address() as AddressInfo).port}`,
    keys: ['or-key'],
    models: ['or-flash-image'],
  });
  await gw.admin('PUT', '/prices/or-flash-image', { input: 0.3, output: 30 });
  await gw.admin('POST', '/channels', {
    name: 'gemini images',
    type: 'gemini',
    base_url: gemini.origin,
    keys: [GEMINI_KEY],
    models: ['gemini-2.5-flash-image', 'gemini-3-pro-image-preview'],
  });
  for (const model of ['gemini-2.5-flash-image', 'gemini-3-pro-image-preview'])
    await gw.admin('PUT', `/prices/${model}`, { input: 0.3, output: 30 });
  const user = await gw.admin('POST', '/users', { username: 'painter', balance: 50 });
  const key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key as string;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } });
  anthropic = new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 });
});

afterAll(async () => {
  await gw?.close();
  await gemini?.close();
  await new Promise((resolve) => openRouter?.close(resolve));
});

beforeEach(() => gemini.clear());

const prompt = [{ role: 'user' as const, content: 'Draw a cat.' }];
const generatedImage = { type: 'image_url', image_url: { url: DATA_URL } };

describe('chat completions clients', () => {
  it('JSON: the image in message.images as a data URL, beside the text', async () => {
    const completion = await openai.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: prompt,
    });
    const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & { images?: unknown };
    expect(message.content).toBe(TEXT);
    expect(message.images).toEqual([generatedImage]);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(gemini.requests.map((request) => request.path)).toEqual([
      '/v1beta/models/gemini-2.5-flash-image:generateContent',
    ]);
  });

  it('stream: the image in a delta of the raw chunks', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gemini-2.5-flash-image',
      messages: prompt,
      stream: true,
    });
    let text = '';
    const images: unknown[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string | null; images?: unknown[] } | undefined;
      text += delta?.content ?? '';
      images.push(...(delta?.images ?? []));
    }
    expect(text).toBe(TEXT);
    expect(images).toEqual([generatedImage]);
    expect(gemini.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash-image:streamGenerateContent');
  });

  it('stream: the SDK stream helper keeps the images in its final message', async () => {
    const final = await openai.chat.completions
      .stream({ model: 'gemini-3-pro-image-preview', messages: prompt })
      .finalChatCompletion();
    const message = final.choices[0]!.message as OpenAI.ChatCompletionMessage & {
      images?: unknown;
      reasoning_details?: { signature?: string; format: string }[];
    };
    expect(message.content).toBe(TEXT);
    expect(message.images).toEqual([generatedImage]);
    // Gemini 3 signs the text and the image: both signatures come back for the client to echo.
    expect(message.reasoning_details?.map((detail) => [detail.format, typeof detail.signature])).toEqual([
      ['google-gemini-v1', 'string'],
      ['google-gemini-v1', 'string'],
    ]);
  });
});

describe('gemini clients (passthrough)', () => {
  it('generateContent: the parts come as the model wrote them, signatures included', async () => {
    // `response.data` warns on the console when text parts come with the image.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = await genai.models.generateContent({
      model: 'gemini-3-pro-image-preview',
      contents: 'Draw',
    });
    // The fake signs `<responseId>:<part>`; the same signatures prove the parts went untouched.
    const sign = (part: string) => issueThoughtSignature(`${response.responseId}:${part}`);
    expect(response.candidates?.[0]?.content?.parts).toEqual([
      { text: TEXT, thoughtSignature: sign('text') },
      { ...inlineImage, thoughtSignature: sign('image') },
    ]);
    expect(response.data).toBe(FAKE_PNG_BASE64);
    warn.mockRestore();
    expect(gemini.requests[0]?.path).toBe('/v1beta/models/gemini-3-pro-image-preview:generateContent');
  });

  it('generateContentStream: the image in the last chunk, unchanged', async () => {
    const stream = await genai.models.generateContentStream({
      model: 'gemini-2.5-flash-image',
      contents: 'Draw',
    });
    const parts: unknown[] = [];
    for await (const chunk of stream) parts.push(chunk.candidates?.[0]?.content?.parts);
    expect(parts.at(-1)).toEqual([inlineImage]);
    expect(
      parts
        .slice(0, -1)
        .flat()
        .map((part) => (part as { text: string }).text)
        .join(''),
    ).toBe(TEXT);
  });
});

describe('responses clients', () => {
  it('JSON: an image_generation_call item after the message', async () => {
    const response = await openai.responses.create({ model: 'gemini-2.5-flash-image', input: 'Draw a cat.' });
    expect(response.output_text).toBe(TEXT);
    expect(response.output.map((item) => item.type)).toEqual(['message', 'image_generation_call']);
    expect(response.output[1]).toMatchObject({ status: 'completed', result: FAKE_PNG_BASE64 });
  });

  it('stream: the item is added and done whole; the final response holds it', async () => {
    const stream = openai.responses.stream({ model: 'gemini-2.5-flash-image', input: 'Draw a cat.' });
    const done: unknown[] = [];
    for await (const event of stream)
      if (event.type === 'response.output_item.done' && event.item.type === 'image_generation_call')
        done.push(event.item.result);
    const final = await stream.finalResponse();
    expect(done).toEqual([FAKE_PNG_BASE64]);
    expect(final.output.find((item) => item.type === 'image_generation_call')).toMatchObject({
      result: FAKE_PNG_BASE64,
    });
  });
});

describe('anthropic messages clients', () => {
  it('JSON and stream: the text survives, the image is dropped with the loss recorded', async () => {
    const debug = vi.spyOn(gw.gateway.services.logger, 'debug');
    try {
      const message = await anthropic.messages.create({
        model: 'gemini-2.5-flash-image',
        max_tokens: 1024,
        messages: prompt,
      });
      expect(message.content).toEqual([{ type: 'text', text: TEXT, citations: null }]);
      const streamed = await anthropic.messages
        .stream({ model: 'gemini-2.5-flash-image', max_tokens: 1024, messages: prompt })
        .finalMessage();
      expect(streamed.content.map((block) => block.type === 'text' && block.text).join('')).toBe(TEXT);
      await gw.gateway.services.tracker.settled();
      const losses = debug.mock.calls
        .filter(([, message]) => message === 'conversion losses')
        .map(([fields]) => (fields as { losses: { path: string; reason: string }[] }).losses);
      expect(losses).toEqual([
        [{ path: 'parts[1]', kind: 'dropped', reason: 'no Anthropic reply block for file' }],
        [
          {
            path: expect.stringMatching(/^stream\[\d+\]$/),
            kind: 'dropped',
            reason: 'no Anthropic reply block for file',
          },
        ],
      ]);
    } finally {
      debug.mockRestore();
    }
  });
});

describe('an OpenAI-compatible upstream that answers with OpenRouter images', () => {
  it('gemini clients get the image as an inlineData part, in replies and streams', async () => {
    openRouterPaths.length = 0;
    const response = await genai.models.generateContent({ model: 'or-flash-image', contents: 'Draw' });
    expect(response.candidates?.[0]?.content?.parts).toEqual([{ text: 'A cat:' }, inlineImage]);
    const stream = await genai.models.generateContentStream({ model: 'or-flash-image', contents: 'Draw' });
    const parts: unknown[] = [];
    for await (const chunk of stream) parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    expect(parts).toContainEqual(inlineImage);
    expect(
      parts
        .filter((part) => 'text' in (part as object))
        .map((part) => (part as { text: string }).text)
        .join(''),
    ).toBe('A cat:');
  });

  it('responses clients get an image_generation_call item, in replies and streams', async () => {
    openRouterPaths.length = 0;
    const response = await openai.responses.create({ model: 'or-flash-image', input: 'Draw' });
    expect(response.output.map((item) => item.type)).toEqual(['message', 'image_generation_call']);
    expect(response.output[1]).toMatchObject({ result: FAKE_PNG_BASE64 });
    const final = await openai.responses.stream({ model: 'or-flash-image', input: 'Draw' }).finalResponse();
    expect(final.output.find((item) => item.type === 'image_generation_call')).toMatchObject({
      result: FAKE_PNG_BASE64,
    });
    expect(final.output_text).toBe('A cat:');
    expect(openRouterPaths).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });
});

/** An OpenRouter-like chat completions server: text, then the image in `images`, JSON or streamed. */
async function startOpenRouterLike(): Promise<Server> {
  const base = { id: 'gen-1', created: 1752150000, model: 'google/gemini-2.5-flash-image' };
  const usage = { prompt_tokens: 5, completion_tokens: 1290, total_tokens: 1295 };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((request, response) => {
    openRouterPaths.push(request.url ?? '');
    const body: Buffer[] = [];
    request.on('data', (piece: Buffer) => body.push(piece));
    request.on('end', () => {
      const stream = (JSON.parse(Buffer.concat(body).toString()) as { stream?: boolean }).stream === true;
      if (!stream)
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'A cat:', images: [generatedImage] },
                finish_reason: 'stop',
              },
            ],
            usage,
          }),
        );
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        chunk({ role: 'assistant', content: 'A cat:' }) +
          chunk({ images: [generatedImage] }) +
          chunk({}, 'stop') +
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n` +
          'data: [DONE]\n\n',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
