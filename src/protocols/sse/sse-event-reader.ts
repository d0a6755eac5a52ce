import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type SseEvent = EventSourceMessage;

/**
 * Turns a byte stream into server-sent events as the bytes arrive. UTF-8 characters and lines split
 * across chunks are reassembled; `end` delivers an event left without its closing blank line.
 */
export class SseEventReader {
  private readonly decoder = new TextDecoder();
  private readonly parser;

  constructor(onEvent: (event: SseEvent) => void) {
    this.parser = createParser({ onEvent });
  }

  push(chunk: Uint8Array): void {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    const rest = this.decoder.decode();
    if (rest) this.parser.feed(rest);
    this.parser.reset({ consume: true });
  }
}

/** One event in wire form. */
export function formatSseEvent(event: { event?: string | undefined; data: string }): string {
  const data = event.data.includes('\n') ? event.data.split('\n').join('\ndata: ') : event.data;
  return event.event ? `event: ${event.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}
