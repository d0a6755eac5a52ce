import Anthropic from '@anthropic-ai/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { FilePart } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { parseSse } from './helpers.js';

/**
 * Images a model generated (Gemini image models) have no block in a Messages reply, which holds
 * text, thinking and tool use (https://docs.anthropic.com/en/api/messages#response-content): they
 * are dropped, the loss recorded, and the rest of the answer reaches the client.
 */

const CAT =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image: FilePart = { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: CAT } };
const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 1300, estimated: false };

describe('anthropic messages: generated images are dropped', () => {
  test('reply: the text blocks stay, the image is a recorded loss', () => {
    const losses = new LossLog();
    const reply: CanonicalReply = {
      id: 'img-response-1',
      model: 'gemini-2.5-flash-image',
      created: 1752150000,
      parts: [{ type: 'text', text: 'A cat:' }, image, { type: 'text', text: 'Enjoy.' }],
      finishReason: { unified: 'stop', raw: 'STOP' },
      usage,
      extensions: {},
    };
    const message = codec.encodeReply(reply, losses) as { content: unknown[]; stop_reason: string };
    expect(message.content).toEqual([
      { type: 'text', text: 'A cat:', citations: null },
      { type: 'text', text: 'Enjoy.', citations: null },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect(losses.losses).toEqual([
      { path: 'parts[1]', kind: 'dropped', reason: 'no Anthropic reply block for file' },
    ]);
  });

  const events: StreamEvent[] = [
    { type: 'response-start', id: 'img-response-1', model: 'gemini-2.5-flash-image', created: 1752150000 },
    { type: 'text-start', index: 0 },
    { type: 'text-delta', index: 0, text: 'A cat:' },
    { type: 'text-end', index: 0 },
    { type: 'file', index: 1, file: image },
    { type: 'text-start', index: 2 },
    { type: 'text-delta', index: 2, text: 'Enjoy.' },
    { type: 'text-end', index: 2 },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' }, usage },
  ];

  function encode(losses: LossLog): string {
    const encoder = codec.createStreamEncoder({
      losses,
      estimatedInputTokens: 10,
      model: 'gemini-2.5-flash-image',
    });
    return events.map((event) => encoder.push(event)).join('') + encoder.end();
  }

  test('stream: blocks keep contiguous indexes around the dropped image, the loss recorded', () => {
    const losses = new LossLog();
    const wire = parseSse(encode(losses)).map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(JSON.stringify(wire)).not.toContain(CAT);
    const starts = wire.filter((event) => event.type === 'content_block_start');
    expect(starts.map((event) => [event.index, (event.content_block as { type: string }).type])).toEqual([
      [0, 'text'],
      [1, 'text'],
    ]);
    expect(wire.at(-1)).toEqual({ type: 'message_stop' });
    expect(losses.losses).toEqual([
      { path: 'stream[1]', kind: 'dropped', reason: 'no Anthropic reply block for file' },
    ]);
  });

  test('stream: the Anthropic SDK accumulates the text of the message', async () => {
    const body = encode(new LossLog());
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new Anthropic({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
      const message = await client.messages
        .stream({
          model: 'gemini-2.5-flash-image',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'Draw' }],
        })
        .finalMessage();
      expect(message.content).toEqual([
        { type: 'text', text: 'A cat:', citations: null },
        { type: 'text', text: 'Enjoy.', citations: null },
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
