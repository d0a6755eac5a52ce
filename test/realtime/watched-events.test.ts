import { describe, expect, it } from 'vitest';
import { WatchedEvents } from '../../src/http/realtime/watched-events.js';

const watched = new WatchedEvents(['response.done', 'error'] as const);
const frame = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('WatchedEvents', () => {
  it('reads the watched events wherever their type member stands', () => {
    expect(watched.read(frame({ type: 'response.done', response: { id: 'r' } }))).toEqual({
      type: 'response.done',
      event: { type: 'response.done', response: { id: 'r' } },
    });
    expect(watched.read(frame('{"event_id":"e","type" : "error","error":{}}'))?.type).toBe('error');
  });

  it('leaves other events alone, even when a watched name appears inside them', () => {
    expect(watched.read(frame({ type: 'response.output_audio.delta', delta: 'AAAA' }))).toBeUndefined();
    expect(watched.read(frame({ type: 'response.output_text.delta', delta: 'error' }))).toBeUndefined();
    expect(
      watched.read(frame({ type: 'response.output_text.delta', delta: 'response.done' })),
    ).toBeUndefined();
    // `"response.done"` is not `"response.done.more"`.
    expect(watched.read(frame({ type: 'response.done.more' }))).toBeUndefined();
  });

  it('never parses what is not a JSON object, nor JSON nested past the limit', () => {
    expect(watched.read(frame('"error"'))).toBeUndefined();
    expect(watched.read(frame('{"type":"error"'))).toBeUndefined();
    const deep = `{"type":"error","x":${'['.repeat(200)}${']'.repeat(200)}}`;
    expect(watched.read(frame(deep))).toBeUndefined();
  });
});
