import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SseFrameParser } from '../../../src/protocols/sse/sse-frame-parser.js';
import { SseFrameSplitter } from '../../../src/protocols/sse/sse-frame-splitter.js';

const FIXTURES = new URL('../../../src/protocols/', import.meta.url);
const fixture = (path: string) => readFileSync(new URL(path, FIXTURES));

/** Every way lines may end, comments, `id:` and `retry:` lines, stray blank lines and multi-byte text. */
const MIXED = Buffer.from(
  [
    ': keep-alive\n\n',
    'id: 1\nevent: message_start\ndata: {"a":"é"}\n\n',
    'retry: 3000\n\n',
    '\n\n',
    'data: {"b":"世界"}\r\n\r\n',
    'data: first\rdata: second\r\r',
    'id: 7\n: a comment inside\ndata: {"c":"👋"}\n\r\n',
    'event: ping\r\ndata: {}\n\n',
    '\r\n',
  ].join(''),
);

interface Split {
  frames: Buffer[];
  rest: Buffer | undefined;
  incomplete: boolean;
}

/** `bytes` pushed in the pieces given by `cuts` (byte offsets). */
function split(bytes: Buffer, cuts: readonly number[]): Split {
  const frames: Buffer[] = [];
  const splitter = new SseFrameSplitter((chunk, start, end) =>
    frames.push(Buffer.from(chunk.subarray(start, end))),
  );
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    splitter.push(bytes.subarray(from, cut));
    from = cut;
  }
  return { frames, ...splitter.end() };
}

/** What a reader of the whole stream at once dispatches. */
function eventsOfWhole(bytes: Buffer): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const text = bytes.toString('utf8');
  // A CR last ends a line; the parser would wait for an LF that may follow it.
  createParser({ onEvent: (event) => events.push(event) }).feed(text.endsWith('\r') ? `${text}\n` : text);
  return events;
}

/** The frame ends with a blank line: one line end right after another. */
function endsWithBlankLine(frame: Buffer): boolean {
  const text = frame.toString('latin1');
  const body = text.endsWith('\r\n') ? text.slice(0, -2) : text.slice(0, -1);
  return /[\r\n]$/.test(body) && /[\r\n]$/.test(text);
}

/** Whole frames, byte-exact, each with at most one event, the same events as the whole stream. */
function expectWholeFrames(bytes: Buffer, result: Split): void {
  expect(Buffer.concat([...result.frames, result.rest ?? Buffer.alloc(0)]).equals(bytes)).toBe(true);
  expect(result.incomplete).toBe(false);
  const shared = new SseFrameParser();
  const events = result.frames.map((frame) => {
    expect(endsWithBlankLine(frame)).toBe(true);
    // Read alone, a frame gives the same event as in its stream: nothing of it is elsewhere.
    const alone = new SseFrameParser().parse(frame, 0, frame.length);
    expect(shared.parse(frame, 0, frame.length)).toEqual(alone);
    return alone;
  });
  expect(events.filter((event) => event !== undefined)).toEqual(eventsOfWhole(bytes));
}

const streams: [string, Buffer][] = [
  ['every kind of line end, comments and id lines', MIXED],
  [
    'bytes that are not UTF-8',
    Buffer.concat([
      Buffer.from('data: {"x":"'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}\n\ndata: {"y":"é"}\n\n'),
    ]),
  ],
  [
    'a recorded Anthropic stream (LF, multi-byte)',
    fixture('anthropic-messages/__fixtures__/stream-thinking-tool.txt'),
  ],
  ['a recorded Gemini stream', fixture('gemini/__fixtures__/stream-thoughts-text.txt')],
  ['a recorded OpenAI chat stream', fixture('openai-chat/__fixtures__/stream-text.txt')],
  [
    'a recorded Gemini stream with CRLF line ends',
    Buffer.from(
      fixture('gemini/__fixtures__/stream-parallel-calls.txt').toString('utf8').replace(/\r?\n/g, '\r\n'),
    ),
  ],
  [
    'a recorded OpenAI chat stream with CR line ends',
    Buffer.from(
      fixture('openai-chat/__fixtures__/stream-tool-calls.txt').toString('utf8').replace(/\r?\n/g, '\r'),
    ),
  ],
];

describe('SseFrameSplitter', () => {
  it.each(streams)('%s: in one piece, whole frames byte-exact', (_, bytes) => {
    const result = split(bytes, []);
    expectWholeFrames(bytes, result);
    expect(result.frames.length).toBeGreaterThan(1);
  });

  it.each(streams)('%s: cut at every single byte boundary, the same frames', (_, bytes) => {
    for (let cut = 1; cut < bytes.length; cut += 1) expectWholeFrames(bytes, split(bytes, [cut]));
  });

  it.each(streams)('%s: one byte at a time, the same frames', (_, bytes) => {
    const cuts = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
    expectWholeFrames(bytes, split(bytes, cuts));
  });

  it('keeps comments, id lines and line ends as they came', () => {
    const { frames } = split(MIXED, []);
    expect(frames.map((frame) => frame.toString('utf8'))).toEqual([
      ': keep-alive\n\n',
      'id: 1\nevent: message_start\ndata: {"a":"é"}\n\n',
      'retry: 3000\n\n',
      '\n\ndata: {"b":"世界"}\r\n\r\n',
      'data: first\rdata: second\r\r',
      'id: 7\n: a comment inside\ndata: {"c":"👋"}\n\r\n',
      'event: ping\r\ndata: {}\n\n',
    ]);
  });

  it('sends a frame ended by a lone CR at once; an LF after it goes with the next frame', () => {
    const frames: string[] = [];
    const splitter = new SseFrameSplitter((chunk, start, end) =>
      frames.push(chunk.toString('utf8', start, end)),
    );
    splitter.push(Buffer.from('data: a\r\n\r'));
    expect(frames).toEqual(['data: a\r\n\r']);
    splitter.push(Buffer.from('\ndata: b\r\n\r\n'));
    expect(frames).toEqual(['data: a\r\n\r', '\ndata: b\r\n\r\n']);
    expect(splitter.end()).toEqual({ rest: undefined, incomplete: false });
  });

  it('holds an incomplete event back, and says so at the end', () => {
    for (const tail of ['data: {"a":', 'data: {"a":1}\n', 'event: x\r\n', ': comment']) {
      const frames: string[] = [];
      const splitter = new SseFrameSplitter((chunk, start, end) =>
        frames.push(chunk.toString('utf8', start, end)),
      );
      splitter.push(Buffer.from(`data: {}\n\n${tail}`));
      expect(frames).toEqual(['data: {}\n\n']);
      const { rest, incomplete } = splitter.end();
      expect({ rest: rest?.toString('utf8'), incomplete }).toEqual({ rest: tail, incomplete: true });
    }
  });

  it('a tail of blank lines only is no incomplete event', () => {
    const { frames, rest, incomplete } = split(Buffer.from('data: {}\n\n\n\r\n'), [11]);
    expect(frames.map(String)).toEqual(['data: {}\n\n']);
    expect({ rest: rest?.toString('utf8'), incomplete }).toEqual({ rest: '\n\r\n', incomplete: false });
  });
});
