import type { EventSourceMessage } from 'eventsource-parser';
import { SseFrameParser } from './sse-frame-parser.js';
import { SseFrameSplitter } from './sse-frame-splitter.js';

export type SseEvent = EventSourceMessage;

/**
 * Turns a byte stream into server-sent events as the bytes arrive: each event goes out once its
 * frame is whole (`SseFrameSplitter`), so lines and UTF-8 characters split across chunks are
 * reassembled. An event the stream stops in the middle of is never delivered; `end` says whether
 * there was one.
 */
export class SseEventReader {
  private readonly parser = new SseFrameParser();
  private readonly splitter: SseFrameSplitter;

  constructor(onEvent: (event: SseEvent) => void) {
    this.splitter = new SseFrameSplitter((bytes, start, end) => {
      const event = this.parser.parse(bytes, start, end);
      if (event) onEvent(event);
    });
  }

  push(chunk: Uint8Array): void {
    this.splitter.push(
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
    );
  }

  /** End of input: `incomplete` when the stream stopped in the middle of an event. */
  end(): { incomplete: boolean } {
    return { incomplete: this.splitter.end().incomplete };
  }
}

/** One event in wire form. */
export function formatSseEvent(event: { event?: string | undefined; data: string }): string {
  const data = event.data.includes('\n') ? event.data.split('\n').join('\ndata: ') : event.data;
  return event.event ? `event: ${event.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}
