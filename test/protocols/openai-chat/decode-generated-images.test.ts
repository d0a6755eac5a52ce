import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { decodeInPieces, expectStreamGrammar } from './helpers.js';

/**
 * An OpenAI-compatible upstream that answers with OpenRouter's generated `images`
 * (https://openrouter.ai/docs/features/multimodal/image-generation): decoded into file parts and
 * `file` events, so that Gemini and Responses clients get them.
 */

const CAT =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const catFile = { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: CAT } };
const linkedFile = {
  type: 'file',
  mediaType: 'image/*',
  source: { kind: 'url', url: 'https://cdn.example/a.webp' },
};

function completion(message: Record<string, unknown>) {
  return {
    id: 'gen-1752150000-abc',
    object: 'chat.completion',
    created: 1752150000,
    model: 'google/gemini-2.5-flash-image',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 1300, total_tokens: 1310 },
  };
}

describe('decodeReply: message.images', () => {
  test('a data URL is a base64 file of its media type, a link a linked image, after the text', () => {
    const losses = new LossLog();
    const reply = openAIChatCodec.decodeReply(
      completion({
        content: 'Here is a cat.',
        images: [image(`data:image/PNG;base64,${CAT}`), image('https://cdn.example/a.webp')],
      }),
      losses,
    );
    expect(reply.parts).toEqual([{ type: 'text', text: 'Here is a cat.' }, catFile, linkedFile]);
    // The images are parts now, not a message member kept for a chat client.
    expect(reply.extensions).toEqual({});
    expect(losses.losses).toEqual([]);
  });

  test('leniently: entries it cannot read are dropped with the loss, the others kept', () => {
    const losses = new LossLog();
    const reply = openAIChatCodec.decodeReply(
      completion({
        content: null,
        images: [
          'not an entry',
          { type: 'image_url' },
          { type: 'video_url', video_url: { url: 'https://cdn.example/a.mp4' } },
          image('data:text/plain;base64,aGk='),
          { type: 'image_url', image_url: { url: `data:image/png;base64,${CAT}`, detail: 'high' }, index: 0 },
          { image_url: 'https://cdn.example/a.webp', revised_prompt: 'a cat' },
        ],
      }),
      losses,
    );
    expect(reply.parts).toEqual([catFile, linkedFile]);
    const at = (index: number, rest = '') => `choices[0].message.images[${index}]${rest}`;
    expect(losses.losses).toEqual([
      { path: at(0), kind: 'dropped', reason: 'not an image entry' },
      { path: at(1), kind: 'dropped', reason: 'an images entry without image_url.url' },
      { path: at(2), kind: 'dropped', reason: 'an images entry of type video_url has no canonical form' },
      { path: at(3, '.image_url.url'), kind: 'dropped', reason: 'not a data URL of an image' },
      {
        path: at(4, '.image_url.detail'),
        kind: 'dropped',
        reason: 'no canonical place for this image field',
      },
      { path: at(5, '.revised_prompt'), kind: 'dropped', reason: 'no canonical place for this images field' },
    ]);
  });

  test('images that are not an array do not break the reply', () => {
    const reply = openAIChatCodec.decodeReply(completion({ content: 'Hi.', images: 'oops' }), new LossLog());
    expect(reply.parts).toEqual([{ type: 'text', text: 'Hi.' }]);
  });

  test('round trip: chat -> canonical -> chat keeps the images, and decoding again gives the same parts', () => {
    const images = [image(`data:image/png;base64,${CAT}`), image('https://cdn.example/a.webp')];
    const body = completion({ content: 'Here is a cat.', images });
    const decoded = openAIChatCodec.decodeReply(body, new LossLog());
    const encoded = openAIChatCodec.encodeReply(decoded, new LossLog()) as {
      choices: { message: Record<string, unknown> }[];
    };
    expect(encoded.choices[0]?.message.images).toEqual(images);
    // Only the parts: the id gains its `chatcmpl-` prefix, the choice its `logprobs: null`.
    const again = openAIChatCodec.decodeReply(encoded, new LossLog());
    expect(again.parts).toEqual(decoded.parts);
    // The images are not kept a second time as a message member.
    expect(again.extensions['openai-chat']).not.toHaveProperty('messageFields');
  });
});

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const body = {
    id: 'gen-1752150000-abc',
    object: 'chat.completion.chunk',
    created: 1752150000,
    model: 'google/gemini-2.5-flash-image',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function decodeStream(text: string, losses = new LossLog()): StreamEvent[] {
  const decoder = openAIChatCodec.createStreamDecoder(losses);
  return decodeInPieces(decoder, new TextEncoder().encode(text));
}

describe('decodeStream: delta.images', () => {
  const stream = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Here is ' }),
    chunk({ content: 'a cat.', images: [image(`data:image/png;base64,${CAT}`)] }),
    chunk({ images: [image('https://cdn.example/a.webp')] }),
    chunk({ content: 'Enjoy.' }),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ].join('');

  test('each image is a whole file event with an index of its own; it ends the open text', () => {
    const events = decodeStream(stream);
    expectStreamGrammar(events);
    expect(events.slice(1, -1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Here is ' },
      { type: 'text-delta', index: 0, text: 'a cat.' },
      { type: 'text-end', index: 0 },
      { type: 'file', index: 1, file: catFile },
      { type: 'file', index: 2, file: linkedFile },
      { type: 'text-start', index: 3 },
      { type: 'text-delta', index: 3, text: 'Enjoy.' },
      { type: 'text-end', index: 3 },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } });
  });

  test('an unreadable entry is dropped with the loss, named by its chunk', () => {
    const losses = new LossLog();
    const events = decodeStream(
      [chunk({ content: 'x' }), chunk({ images: [{ type: 'image_url' }] }), chunk({}, 'stop')].join(''),
      losses,
    );
    expectStreamGrammar(events);
    expect(events.some((event) => event.type === 'file')).toBe(false);
    expect(losses.losses).toEqual([
      {
        path: 'chunk[1].choices[0].delta.images[0]',
        kind: 'dropped',
        reason: 'an images entry without image_url.url',
      },
    ]);
  });

  test('round trip: the re-encoded stream says the same, and a second trip changes nothing', () => {
    const encoded = encode(decodeStream(stream));
    // The images travel together just before the finish (encode-stream.ts): the message the
    // chunks add up to is the same, text and images each in their order.
    expect(accumulate(encoded)).toEqual(accumulate(stream));
    expect(accumulate(encoded).images).toHaveLength(2);
    const again = decodeStream(encoded);
    expectStreamGrammar(again);
    expect(decodeStream(encode(again))).toEqual(again);
  });
});

function encode(events: StreamEvent[]): string {
  const encoder = openAIChatCodec.createStreamEncoder({
    losses: new LossLog(),
    estimatedInputTokens: 10,
    model: 'google/gemini-2.5-flash-image',
  });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

/** The content and images a client adds up from the chunks' deltas. */
function accumulate(text: string): { content: string; images: unknown[] } {
  const message = { content: '', images: [] as unknown[] };
  for (const frame of text.split('\n\n')) {
    if (!frame.startsWith('data: {')) continue;
    const delta = (
      JSON.parse(frame.slice('data: '.length)) as { choices: { delta: Record<string, unknown> }[] }
    ).choices[0]?.delta;
    if (typeof delta?.content === 'string') message.content += delta.content;
    if (Array.isArray(delta?.images)) message.images.push(...(delta.images as unknown[]));
  }
  return message;
}
