import type { IncomingMessage } from 'node:http';
import type { RecordedRequest } from './fake-upstream.js';
import { isMultipart, multipartFields, parseMultipart } from './parse-multipart.js';

/** A received request as the fakes keep it: a form is read part by part, JSON parsed, other text kept. */
export async function recordRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks);
  const multipart = isMultipart(incoming.headers)
    ? await parseMultipart(rawBody, incoming.headers)
    : undefined;
  return {
    ...recordHead(incoming),
    body: multipart ? multipartFields(multipart) : parseJson(rawBody.toString('utf8')),
    rawBody,
    ...(multipart && { multipart }),
  };
}

/** A WebSocket upgrade: a request without a body. */
export function recordUpgrade(incoming: IncomingMessage): RecordedRequest {
  return { ...recordHead(incoming), body: undefined };
}

function recordHead(incoming: IncomingMessage): Omit<RecordedRequest, 'body'> {
  const url = new URL(incoming.url ?? '/', 'http://fake.invalid');
  return {
    method: incoming.method ?? 'GET',
    url: incoming.url ?? '/',
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
  };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
