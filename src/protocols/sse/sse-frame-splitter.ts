const LF = 0x0a;
const CR = 0x0d;

/** Receives one whole frame: `bytes[start, end)`, exactly as they came. */
export type SseFrameHandler = (bytes: Buffer, start: number, end: number) => void;

/**
 * Cuts a byte stream into whole server-sent events without decoding it, so that each can be
 * forwarded as it came (comments, `id:` lines and line ends included). An event ends at a blank
 * line; lines end in LF, CRLF or CR
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream).
 * A frame is one event with the blank lines before it; a frame still incomplete waits, as bytes,
 * for the chunk that completes it.
 *
 * Field text is skipped with `indexOf`, so the cost per event is a few native searches, not a
 * loop over every byte.
 */
export class SseFrameSplitter {
  /** Bytes of the frame under way that came in earlier chunks. */
  private pending: Buffer[] = [];
  /** Nothing on the current line yet. */
  private lineEmpty = true;
  /** The last byte seen was a CR: an LF right after it ends the same line. */
  private afterCR = false;
  /** The frame under way has a line with something on it (a field or a comment). */
  private hasContent = false;

  constructor(private readonly onFrame: SseFrameHandler) {}

  /** Reports, in order, every frame that `chunk` completes. */
  push(chunk: Buffer): void {
    const length = chunk.length;
    let frameStart = 0;
    let position = 0;
    let nextCR = chunk.indexOf(CR);
    while (position < length) {
      const byte = chunk[position];
      if (byte === LF) {
        position += 1;
        if (this.afterCR) {
          this.afterCR = false;
        } else if (this.endLine()) {
          this.emit(chunk, frameStart, position);
          frameStart = position;
        }
      } else if (byte === CR) {
        position += 1;
        this.afterCR = true;
        if (this.endLine()) {
          // A CRLF blank line ends the frame after its LF when the LF is already here.
          if (position < length && chunk[position] === LF) {
            position += 1;
            this.afterCR = false;
          }
          this.emit(chunk, frameStart, position);
          frameStart = position;
        }
      } else {
        this.afterCR = false;
        this.lineEmpty = false;
        if (nextCR !== -1 && nextCR < position) nextCR = chunk.indexOf(CR, position);
        const nextLF = chunk.indexOf(LF, position);
        const next = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
        position = next === -1 ? length : next;
      }
    }
    if (frameStart < length) this.pending.push(frameStart === 0 ? chunk : chunk.subarray(frameStart));
  }

  /**
   * End of input. `rest` is what never completed a frame; `incomplete` says it holds part of an
   * event (the stream stopped mid-frame) rather than blank lines only.
   */
  end(): { rest: Buffer | undefined; incomplete: boolean } {
    const rest = this.pending.length > 0 ? Buffer.concat(this.pending) : undefined;
    const incomplete = this.hasContent || !this.lineEmpty;
    this.pending = [];
    this.lineEmpty = true;
    this.afterCR = false;
    this.hasContent = false;
    return { rest, incomplete };
  }

  /** A line ended: true when it is the blank line that ends a frame. */
  private endLine(): boolean {
    if (!this.lineEmpty) {
      this.lineEmpty = true;
      this.hasContent = true;
      return false;
    }
    // Blank lines before any field belong to the next frame.
    if (!this.hasContent) return false;
    this.hasContent = false;
    return true;
  }

  private emit(chunk: Buffer, start: number, end: number): void {
    if (this.pending.length === 0) return this.onFrame(chunk, start, end);
    this.pending.push(chunk.subarray(start, end));
    const frame = Buffer.concat(this.pending);
    this.pending = [];
    this.onFrame(frame, 0, frame.length);
  }
}
