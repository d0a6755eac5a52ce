import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { FlowControlledSender, PausableSocket, PauseReason } from '../../src/http/realtime/flow-control.js';

/** A socket that records pauses and keeps each send's completion for the test to call. */
function fakeSocket() {
  const completions: (() => void)[] = [];
  const sent: { data: Buffer | string; binary: boolean }[] = [];
  const state = { paused: false, pauses: 0, resumes: 0 };
  const socket = {
    readyState: 1,
    OPEN: 1,
    pause() {
      state.paused = true;
      state.pauses += 1;
    },
    resume() {
      state.paused = false;
      state.resumes += 1;
    },
    send(data: Buffer | string, options: { binary: boolean }, done: () => void) {
      sent.push({ data, binary: options.binary });
      completions.push(done);
    },
  };
  return { socket: socket as unknown as WebSocket, completions, sent, state };
}

describe('FlowControlledSender', () => {
  it('stops reading the source past 512 KiB waiting, and reads it again once down to 128 KiB', () => {
    const source = fakeSocket();
    const target = fakeSocket();
    const sender = new FlowControlledSender(target.socket, new PausableSocket(source.socket));
    const frame = Buffer.alloc(100 * 1024);
    for (let index = 0; index < 5; index += 1) sender.send(frame, true);
    expect(source.state.paused).toBe(false);
    sender.send(frame, true);
    expect(source.state).toMatchObject({ paused: true, pauses: 1 });
    // 600 KiB waiting: four written leave 200 KiB, still above the low mark.
    for (let index = 0; index < 4; index += 1) target.completions[index]!();
    expect(source.state.paused).toBe(true);
    target.completions[4]!();
    expect(source.state).toMatchObject({ paused: false, resumes: 1 });
    expect(target.sent.every((item) => item.binary && item.data === frame)).toBe(true);
  });

  it('sends text as text, and nothing to a socket that is not open', () => {
    const target = fakeSocket();
    const sender = new FlowControlledSender(target.socket, new PausableSocket(fakeSocket().socket));
    sender.send('{"type":"x"}', false);
    (target.socket as unknown as { readyState: number }).readyState = 2;
    sender.send('late', false);
    expect(target.sent).toEqual([{ data: '{"type":"x"}', binary: false }]);
  });
});

describe('PausableSocket', () => {
  it('reads again only once every reason to pause is gone', () => {
    const source = fakeSocket();
    const pausable = new PausableSocket(source.socket);
    pausable.hold(PauseReason.Reservation);
    pausable.hold(PauseReason.Backpressure);
    expect(source.state.pauses).toBe(1);
    pausable.release(PauseReason.Backpressure);
    expect(source.state.paused).toBe(true);
    pausable.release(PauseReason.Reservation);
    expect(source.state).toMatchObject({ paused: false, resumes: 1 });
    pausable.release(PauseReason.Reservation);
    expect(source.state.resumes).toBe(1);
    pausable.hold(PauseReason.Backpressure);
    pausable.releaseAll();
    expect(source.state.paused).toBe(false);
  });
});
