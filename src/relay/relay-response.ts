import type { StreamRelay } from './relay-stream.js';

/** What the HTTP layer sends for a relayed request: a complete body, or a stream to relay. */
export type RelayResponse =
  | { kind: 'complete'; status: number; headers: Record<string, string>; body: Buffer | string }
  | {
      kind: 'stream';
      status: number;
      headers: Record<string, string>;
      relay: StreamRelay;
    };

/** The public model that served a relayed response (admin-api section 11.2), on every one. */
export const SERVED_MODEL_HEADER = 'x-gateway-model';

export const STREAM_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};
