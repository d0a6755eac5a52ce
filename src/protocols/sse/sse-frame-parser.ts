import { createParser, type EventSourceMessage } from 'eventsource-parser';

const CR = 0x0d;

/**
 * Reads the fields of whole frames cut by `SseFrameSplitter`, one frame at a time, with one
 * eventsource-parser kept across frames (a byte order mark at the start is dropped once).
 *
 * A chunk of many frames is decoded once: when its text has one UTF-16 unit per byte (no
 * multi-byte characters), byte offsets are text offsets and each frame is a slice of that text.
 * Otherwise each frame is decoded on its own; frames end at a line end, which no UTF-8 sequence
 * spans, so both ways read the same text.
 */
export class SseFrameParser {
  private event: EventSourceMessage | undefined;
  private readonly parser = createParser({
    onEvent: (event) => {
      this.event = event;
    },
  });
  /** The chunk last decoded whole, from `decodedFrom`; `decoded` undefined when it is not one unit per byte. */
  private decodedBytes: Buffer | undefined;
  private decodedFrom = 0;
  private decoded: string | undefined;

  /** The event a whole frame holds; a frame of comments, `id:` or `retry:` lines alone holds none. */
  parse(bytes: Buffer, start: number, end: number): EventSourceMessage | undefined {
    this.event = undefined;
    const text = this.text(bytes, start, end);
    // On a CR last the parser waits to see whether an LF follows; in a whole frame, none does.
    this.parser.feed(bytes[end - 1] === CR ? `${text}\n` : text);
    return this.event;
  }

  private text(bytes: Buffer, start: number, end: number): string {
    if (bytes !== this.decodedBytes || start < this.decodedFrom) {
      if (end === bytes.length) return bytes.toString('utf8', start, end);
      const rest = bytes.toString('utf8', start);
      this.decodedBytes = bytes;
      this.decodedFrom = start;
      this.decoded = rest.length === bytes.length - start ? rest : undefined;
    }
    return this.decoded === undefined
      ? bytes.toString('utf8', start, end)
      : this.decoded.slice(start - this.decodedFrom, end - this.decodedFrom);
  }
}
