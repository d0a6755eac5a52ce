/**
 * Details for `upstream_stream_broken` ("the upstream stream broke off: <detail>"), worded the
 * same whether the stream is passed through or converted.
 */
const PREVIEW_CHARS = 80;

/** An event whose data is not the JSON object its protocol sends. */
export function notJsonObjectDetail(data: string): string {
  const preview = data.length > PREVIEW_CHARS ? `${data.slice(0, PREVIEW_CHARS)}…` : data;
  return `an event whose data is not a JSON object: ${JSON.stringify(preview)}`;
}

/** The upstream closed with part of an event sent. */
export const CUT_MID_EVENT_DETAIL = 'the connection closed in the middle of an event';

/** The upstream closed cleanly before its protocol's last event. */
export function missingLastEventDetail(lastEvent: string): string {
  return `the stream ended without ${lastEvent}`;
}
