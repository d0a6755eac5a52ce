import { createServer } from 'node:http';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { isConverseStreamException } from '../../../src/protocols/bedrock-converse/bedrock-converse-exceptions.js';
import { sseEventsInPieces } from '../../helpers/sse-in-pieces.js';

export interface RecordingServer {
  client: BedrockRuntimeClient;
  /** Requests received: path and body text. */
  requests: { path: string; body: string }[];
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 that records what the SDK sends and answers `reply`, and a
 * `BedrockRuntimeClient` pointed at it (HTTP/1.1: the SDK's default handler speaks HTTP/2).
 */
export async function recordingServer(reply: {
  contentType: string;
  body: Uint8Array | string;
}): Promise<RecordingServer> {
  const requests: RecordingServer['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': reply.contentType });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
  return {
    client,
    requests,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const eventStream = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * The encoder's SSE-style text as AWS event-stream frames, the inverse of the transport: an
 * `event:` name is the frame's `:event-type` (an exception's, `:exception-type`), the data its payload.
 */
export function toEventStream(text: string): Uint8Array {
  const frames = sseEventsInPieces(new TextEncoder().encode(text)).map((event) => {
    const name = event.event ?? '';
    const exception = isConverseStreamException(name);
    const headers = {
      ':message-type': { type: 'string' as const, value: exception ? 'exception' : 'event' },
      [exception ? ':exception-type' : ':event-type']: { type: 'string' as const, value: name },
      ':content-type': { type: 'string' as const, value: 'application/json' },
    };
    return eventStream.encode({ headers, body: fromUtf8(event.data) });
  });
  return Buffer.concat(frames);
}

/** Uint8Array members (`bytes`, `redactedContent`) of an SDK value as base64, as they are on the wire. */
export function base64Blobs(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(base64Blobs);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, base64Blobs(item)]));
  return value;
}

/** The inverse: the wire's base64 `bytes` and `redactedContent` as Uint8Array, as the SDK takes them. */
export function uint8Blobs(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && (key === 'bytes' || key === 'redactedContent'))
    return new Uint8Array(Buffer.from(value, 'base64'));
  if (Array.isArray(value)) return value.map((item) => uint8Blobs(item));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, uint8Blobs(item, name)]));
  return value;
}
