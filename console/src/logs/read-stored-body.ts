import { parseJson } from '../api/parse-json';
import { splitSseEvents, type SseEvent } from './split-sse-events';

/** How a stored body is shown: indented JSON, a stream's events, or the text as stored. */
export type StoredBodyView =
  { kind: 'json'; text: string } | { kind: 'events'; events: SseEvent[] } | { kind: 'raw'; text: string };

/** JSON indented by two spaces, or undefined for text that is not JSON (cut at the size limit, `[DONE]`). */
function indentJson(text: string): string | undefined {
  const parsed = parseJson(text);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : undefined;
}

/**
 * A body of `GET /api/logs/{id}` (admin-api section 12). A streamed request's response is its SSE
 * text, each event's data indented where it is JSON; its JSON error reply, when it failed before the
 * stream began, is shown as JSON. A request body is never a stream: pass `streamed: false`.
 */
export function readStoredBody(body: { text: string; streamed: boolean }): StoredBodyView {
  const json = indentJson(body.text);
  if (json !== undefined) return { kind: 'json', text: json };
  const events = body.streamed ? splitSseEvents(body.text) : [];
  if (events.length === 0) return { kind: 'raw', text: body.text };
  return {
    kind: 'events',
    events: events.map((event) => ({ event: event.event, data: indentJson(event.data) ?? event.data })),
  };
}
