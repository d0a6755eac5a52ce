import { describe, expect, it } from 'vitest';
import { readStoredBody } from './read-stored-body';

describe('readStoredBody', () => {
  it('indents JSON by two spaces', () => {
    expect(readStoredBody({ text: '{"model":"gpt-4o","n":[1,2]}', streamed: false })).toEqual({
      kind: 'json',
      text: '{\n  "model": "gpt-4o",\n  "n": [\n    1,\n    2\n  ]\n}',
    });
  });

  it('shows a body cut in the middle as stored', () => {
    expect(readStoredBody({ text: '{"model":"gpt-4o","mess', streamed: false })).toEqual({
      kind: 'raw',
      text: '{"model":"gpt-4o","mess',
    });
  });

  it('reads a streamed reply as events, indenting the data that is JSON', () => {
    const text = 'event: delta\ndata: {"text":"Hi"}\n\ndata: [DONE]\n\n';
    expect(readStoredBody({ text, streamed: true })).toEqual({
      kind: 'events',
      events: [
        { event: 'delta', data: '{\n  "text": "Hi"\n}' },
        { event: undefined, data: '[DONE]' },
      ],
    });
  });

  it('shows the JSON error reply of a streamed request as JSON', () => {
    expect(readStoredBody({ text: '{"error":{"message":"no"}}', streamed: true })).toMatchObject({
      kind: 'json',
    });
  });

  it('never reads a request body that is not a stream as events', () => {
    expect(readStoredBody({ text: 'data: x\n\n', streamed: false })).toEqual({
      kind: 'raw',
      text: 'data: x\n\n',
    });
    expect(readStoredBody({ text: '', streamed: true })).toEqual({ kind: 'raw', text: '' });
  });
});
