/** One event of a stored stream: its `event:` name where it has one, and its `data:` lines joined. */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/**
 * The events of a Server-Sent-Events text, read as the spec says
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * lines end in CRLF, LF or CR; a blank line ends an event; the `data:` lines of one event are
 * joined with "\n"; lines starting with ":" are comments. Unlike a live reader, this one keeps a
 * last event without its blank line (a body cut at the size limit) and an event without data.
 */
export function splitSseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event: string | undefined;
  let data: string[] = [];
  let hasFields = false;
  const endEvent = () => {
    if (hasFields) events.push({ event, data: data.join('\n') });
    event = undefined;
    data = [];
    hasFields = false;
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      endEvent();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const rawValue = colon === -1 ? '' : line.slice(colon + 1);
    const value = rawValue.startsWith(' ') ? rawValue.slice(1) : rawValue;
    hasFields = true;
    // `id:` and `retry:` steer a live reader's reconnection: nothing to show of a stored stream.
    if (field === 'event') event = value === '' ? undefined : value;
    else if (field === 'data') data.push(value);
  }
  endEvent();
  return events;
}
