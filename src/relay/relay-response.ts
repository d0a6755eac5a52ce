/** What the HTTP layer sends for a relayed request: a complete body, or chunks to stream. */
export type RelayResponse =
  | { kind: 'complete'; status: number; headers: Record<string, string>; body: Buffer | string }
  | {
      kind: 'stream';
      status: number;
      headers: Record<string, string>;
      chunks: AsyncGenerator<Buffer | string>;
    };

export const STREAM_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};
