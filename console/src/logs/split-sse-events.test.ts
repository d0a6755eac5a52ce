import { describe, expect, it } from 'vitest';
import { splitSseEvents } from './split-sse-events';

describe('splitSseEvents', () => {
  it('reads an OpenAI stream: data only, ending with [DONE]', () => {
    const text = 'data: {"id":"c1","choices":[]}\n\ndata: {"id":"c2","choices":[]}\n\ndata: [DONE]\n\n';
    expect(splitSseEvents(text)).toEqual([
      { event: undefined, data: '{"id":"c1","choices":[]}' },
      { event: undefined, data: '{"id":"c2","choices":[]}' },
      { event: undefined, data: '[DONE]' },
    ]);
  });

  it('names the events of an Anthropic stream', () => {
    const text =
      'event: message_start\ndata: {"type":"message_start"}\n\n' +
      'event: ping\ndata: {"type": "ping"}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    expect(splitSseEvents(text)).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'ping', data: '{"type": "ping"}' },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ]);
  });

  it('takes CRLF and lone CR line ends', () => {
    expect(splitSseEvents('event: a\r\ndata: 1\r\n\r\ndata: 2\r\rdata: 3\r\n\r\n')).toEqual([
      { event: 'a', data: '1' },
      { event: undefined, data: '2' },
      { event: undefined, data: '3' },
    ]);
  });

  it('joins the data lines of one event with a line feed, and strips only one space after the colon', () => {
    expect(splitSseEvents('data: first\ndata:second\ndata:  indented\ndata\n\n')).toEqual([
      { event: undefined, data: 'first\nsecond\n indented\n' },
    ]);
  });

  it('skips comment lines, and a block of comments alone is no event', () => {
    expect(splitSseEvents(': keep-alive\n\n: opening\nevent: delta\n: between\ndata: x\n\n')).toEqual([
      { event: 'delta', data: 'x' },
    ]);
  });

  it('ignores id and retry lines but keeps their event', () => {
    expect(splitSseEvents('id: 7\nretry: 1000\ndata: y\n\nid: 8\n\n')).toEqual([
      { event: undefined, data: 'y' },
      { event: undefined, data: '' },
    ]);
  });

  it('keeps a last event cut before its blank line', () => {
    expect(splitSseEvents('data: {"a":1}\n\nevent: delta\ndata: {"b":')).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: 'delta', data: '{"b":' },
    ]);
  });

  it('finds no event in an empty text or in blank lines', () => {
    expect(splitSseEvents('')).toEqual([]);
    expect(splitSseEvents('\n\n\r\n')).toEqual([]);
  });
});
