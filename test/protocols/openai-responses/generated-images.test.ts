import { describe, expect, test } from 'vitest';
import type { FilePart } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage, type Usage } from '../../../src/ir/usage.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { withOpenAIClient } from './local-server.js';
import { readSseEvents } from './sse-helpers.js';

/**
 * Images a model generated (Gemini image models), given to Responses clients as the output item
 * Responses has for them, `image_generation_call` with the base64 `result`
 * (https://platform.openai.com/docs/api-reference/responses/object#responses/object-output).
 */

const CAT =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const file = (mediaType: string, data: string): FilePart => ({
  type: 'file',
  mediaType,
  source: { kind: 'base64', data },
});
const usage: Usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 1300, estimated: false };

function reply(parts: CanonicalReply['parts']): CanonicalReply {
  return {
    id: 'img-response-1',
    model: 'gemini-2.5-flash-image',
    created: 1752150000,
    parts,
    finishReason: { unified: 'stop', raw: 'STOP' },
    usage,
    extensions: {},
  };
}

type Item = Record<string, unknown>;

describe('encodeReply: image_generation_call items', () => {
  test('text in a message, then each image an item of its own, in order', () => {
    const losses = new LossLog();
    const response = codec.encodeReply(
      reply([
        { type: 'text', text: 'A cat:' },
        file('image/png', CAT),
        { type: 'text', text: 'And again, as JPEG:' },
        file('image/jpeg', '/9j/4AAQ'),
      ]),
      losses,
    ) as { output: Item[]; status: string };
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => item.type)).toEqual([
      'message',
      'image_generation_call',
      'message',
      'image_generation_call',
    ]);
    expect(response.output[1]).toEqual({
      id: expect.stringMatching(/^ig_[0-9a-f]+$/),
      type: 'image_generation_call',
      status: 'completed',
      result: CAT,
      output_format: 'png',
    });
    expect(response.output[3]).toMatchObject({ result: '/9j/4AAQ', output_format: 'jpeg' });
    const ids = response.output.map((item) => item.id);
    expect(new Set(ids).size).toBe(4);
    expect(losses.losses).toEqual([]);
  });

  test('the ids are deterministic', () => {
    const encode = () =>
      (codec.encodeReply(reply([file('image/png', CAT)]), new LossLog()) as { output: Item[] }).output[0]?.id;
    expect(encode()).toBe(encode());
  });

  test('an image of another format has no output_format; a link or another file is dropped with the loss', () => {
    const losses = new LossLog();
    const response = codec.encodeReply(
      reply([
        file('image/gif', 'R0lGODlh'),
        { type: 'file', mediaType: 'image/*', source: { kind: 'url', url: 'https://cdn.example/cat.png' } },
        file('audio/wav', 'UklGRg=='),
      ]),
      losses,
    ) as { output: Item[] };
    expect(response.output).toEqual([
      { id: expect.any(String), type: 'image_generation_call', status: 'completed', result: 'R0lGODlh' },
    ]);
    expect(losses.losses).toEqual([
      {
        path: 'parts[1]',
        kind: 'dropped',
        reason: 'a generated image/* file by url has no Responses output item',
      },
      {
        path: 'parts[2]',
        kind: 'dropped',
        reason: 'a generated audio/wav file by base64 has no Responses output item',
      },
    ]);
  });
});

const imageEvents: StreamEvent[] = [
  { type: 'response-start', id: 'img-response-1', model: 'gemini-2.5-flash-image', created: 1752150000 },
  { type: 'text-start', index: 0 },
  { type: 'text-delta', index: 0, text: 'A cat:' },
  { type: 'text-end', index: 0 },
  { type: 'file', index: 1, file: file('image/png', CAT) },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' }, usage },
];

function encodeStream(events: StreamEvent[], losses = new LossLog()): string {
  const encoder = codec.createStreamEncoder({
    losses,
    estimatedInputTokens: 10,
    model: 'gemini-2.5-flash-image',
  });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

describe('encodeStream: image_generation_call items', () => {
  test('the message item ends, then the image item is added and done whole; the final response holds both', () => {
    const events = readSseEvents(new TextEncoder().encode(encodeStream(imageEvents))).map(
      (event) => JSON.parse(event.data) as Item,
    );
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const imageItem = { id: expect.stringMatching(/^ig_/), type: 'image_generation_call', result: CAT };
    expect(events[9]).toMatchObject({ output_index: 1, item: { ...imageItem, status: 'completed' } });
    const completed = events.at(-1)!.response as { output: Item[] };
    expect(completed.output.map((item) => item.type)).toEqual(['message', 'image_generation_call']);
    expect(completed.output[1]).toMatchObject(imageItem);
  });

  test('the OpenAI SDK stream helper gives the image item in its final response', async () => {
    const final = await withOpenAIClient(
      { contentType: 'text/event-stream', chunks: [encodeStream(imageEvents)] },
      (client) =>
        client.responses.stream({ model: 'gemini-2.5-flash-image', input: 'Draw a cat.' }).finalResponse(),
    );
    expect(final.output_text).toBe('A cat:');
    const item = final.output.find((entry) => entry.type === 'image_generation_call');
    expect(item).toMatchObject({ type: 'image_generation_call', status: 'completed', result: CAT });
  });

  test('a linked image is dropped with the loss, no item added', () => {
    const losses = new LossLog();
    const text = encodeStream(
      [
        imageEvents[0]!,
        {
          type: 'file',
          index: 0,
          file: { type: 'file', mediaType: 'image/*', source: { kind: 'url', url: 'https://x/y.png' } },
        },
        imageEvents.at(-1)!,
      ],
      losses,
    );
    expect(text).not.toContain('image_generation_call');
    expect(losses.losses).toEqual([
      {
        path: 'stream[0]',
        kind: 'dropped',
        reason: 'a generated image/* file by url has no Responses output item',
      },
    ]);
  });
});
