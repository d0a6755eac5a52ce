import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import type { FilePart } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { serveOnce } from './helpers.js';

/**
 * Images a model generated (Gemini image models), given to chat completions clients in OpenRouter's
 * `message.images` / `delta.images` (https://openrouter.ai/docs/features/multimodal/image-generation).
 */

const CAT =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const DOG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWNgYGD4DwABBAEAhj0vZQAAAABJRU5ErkJggg==';
const base64 = (mediaType: string, data: string): FilePart => ({
  type: 'file',
  mediaType,
  source: { kind: 'base64', data },
});
const linked: FilePart = {
  type: 'file',
  mediaType: 'image/*',
  source: { kind: 'url', url: 'https://cdn.example/cat.png' },
};
const image = (url: string) => ({ type: 'image_url', image_url: { url } });

function reply(parts: CanonicalReply['parts']): CanonicalReply {
  return {
    id: 'img-response-1',
    model: 'gemini-2.5-flash-image',
    created: 1752150000,
    parts,
    finishReason: { unified: 'stop', raw: 'STOP' },
    usage: emptyUsage(),
    extensions: {},
  };
}

describe('encodeReply: generated images in message.images', () => {
  test('inline images as data URLs, links as they are, beside the text; the signature in reasoning_details', () => {
    const losses = new LossLog();
    const completion = openAIChatCodec.encodeReply(
      reply([
        { type: 'text', text: 'A cat and a dog:' },
        { type: 'reasoning', text: '', signature: { issuer: 'gemini', value: 'c2ln' } },
        base64('image/png', CAT),
        base64('image/jpeg', DOG),
        linked,
      ]),
      losses,
    ) as { choices: { message: Record<string, unknown>; finish_reason: string }[] };
    const message = completion.choices[0]!.message;
    expect(message.content).toBe('A cat and a dog:');
    expect(message.images).toEqual([
      image(`data:image/png;base64,${CAT}`),
      image(`data:image/jpeg;base64,${DOG}`),
      image('https://cdn.example/cat.png'),
    ]);
    expect(message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: '', signature: 'c2ln', format: 'google-gemini-v1', index: 0 },
    ]);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(losses.losses).toEqual([]);
  });

  test('no images member without images; other files and file ids are dropped with the loss', () => {
    const losses = new LossLog();
    const completion = openAIChatCodec.encodeReply(
      reply([
        { type: 'text', text: 'Here.' },
        base64('audio/wav', 'UklGRg=='),
        { type: 'file', mediaType: 'image/png', source: { kind: 'file-id', fileId: 'file-abc' } },
      ]),
      losses,
    ) as { choices: { message: Record<string, unknown> }[] };
    expect(completion.choices[0]!.message).not.toHaveProperty('images');
    expect(losses.losses).toEqual([
      {
        path: 'parts[1]',
        kind: 'dropped',
        reason: 'a chat completion message cannot hold a generated audio/wav file',
      },
      { path: 'parts[2]', kind: 'dropped', reason: 'an uploaded-file id has no chat completions form' },
    ]);
  });
});

const start: StreamEvent = {
  type: 'response-start',
  id: 'img-response-1',
  model: 'gemini-2.5-flash-image',
  created: 1752150000,
};
/** A Gemini image model's answer as the Gemini stream decoder hands it over: text, then two images. */
const imageEvents: StreamEvent[] = [
  start,
  { type: 'text-start', index: 0 },
  { type: 'text-delta', index: 0, text: 'A cat ' },
  { type: 'text-delta', index: 0, text: 'and a dog:' },
  { type: 'text-end', index: 0 },
  { type: 'file', index: 1, file: base64('image/png', CAT) },
  { type: 'file', index: 2, file: linked },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' } },
];

function encode(events: readonly StreamEvent[], losses = new LossLog()): string {
  const encoder = openAIChatCodec.createStreamEncoder({
    losses,
    estimatedInputTokens: 10,
    model: 'gemini-2.5-flash-image',
  });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

const deltasOf = (body: string) =>
  body
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'))
    .map(
      (frame) =>
        JSON.parse(frame.slice('data: '.length)) as {
          choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
        },
    )
    .map((chunk) => ({ delta: chunk.choices[0]?.delta, finish: chunk.choices[0]?.finish_reason }));

describe('encodeStream: generated images in delta.images', () => {
  test('every image in one delta just before the finish', () => {
    expect(deltasOf(encode(imageEvents))).toEqual([
      { delta: { role: 'assistant', content: '', refusal: null }, finish: null },
      { delta: { content: 'A cat ' }, finish: null },
      { delta: { content: 'and a dog:' }, finish: null },
      {
        delta: { images: [image(`data:image/png;base64,${CAT}`), image('https://cdn.example/cat.png')] },
        finish: null,
      },
      { delta: {}, finish: 'stop' },
    ]);
  });

  test('a stream that ends without a finish still gives its images', () => {
    const losses = new LossLog();
    const deltas = deltasOf(encode(imageEvents.slice(0, -1), losses));
    expect(deltas.slice(-2)).toEqual([
      {
        delta: { images: [image(`data:image/png;base64,${CAT}`), image('https://cdn.example/cat.png')] },
        finish: null,
      },
      { delta: {}, finish: 'stop' },
    ]);
    expect(losses.losses).toEqual([
      {
        path: 'finish_reason',
        kind: 'coerced',
        reason: 'the stream ended without a finish; it goes as stop',
      },
    ]);
  });

  test('a file the chunks cannot carry is dropped with the loss, and no images delta is sent', () => {
    const losses = new LossLog();
    const body = encode(
      [
        start,
        { type: 'file', index: 0, file: base64('application/pdf', 'JVBERi0=') },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' } },
      ],
      losses,
    );
    expect(body).not.toContain('"images"');
    expect(losses.losses).toEqual([
      {
        path: 'stream[0]',
        kind: 'dropped',
        reason: 'a chat completion message cannot hold a generated application/pdf file',
      },
    ]);
  });

  test('the OpenAI SDK reads the images in the raw chunks, and its stream helper keeps every one', async () => {
    const server = await serveOnce(encode(imageEvents), 'text/event-stream; charset=utf-8');
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
      const params = {
        model: 'gemini-2.5-flash-image',
        messages: [{ role: 'user' as const, content: 'Draw' }],
      };
      const helper = client.chat.completions.stream(params);
      const seen: unknown[] = [];
      for await (const chunk of helper)
        seen.push(...((chunk.choices[0]?.delta as { images?: unknown[] }).images ?? []));
      const final = await helper.finalChatCompletion();
      const expected = [image(`data:image/png;base64,${CAT}`), image('https://cdn.example/cat.png')];
      expect(seen).toEqual(expected);
      // The helper assigns a delta member it does not know over the last value (Object.assign).
      expect((final.choices[0]?.message as { images?: unknown }).images).toEqual(expected);
      expect(final.choices[0]?.message.content).toBe('A cat and a dog:');
    } finally {
      await server.close();
    }
  });
});
