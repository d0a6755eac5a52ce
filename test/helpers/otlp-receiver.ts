import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OTLP/HTTP traces receiver on 127.0.0.1, for tests: it takes what the JSON exporter sends
 * to `/v1/traces` (https://opentelemetry.io/docs/specs/otlp/#otlphttp-request) and keeps each span
 * with its attributes decoded, and every raw body as received.
 */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP span kind: 2 server, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The traces URL (`.../v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  bodies: string[];
  contentTypes: string[];
  close(): Promise<void>;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      bodies.push(body);
      contentTypes.push(request.headers['content-type'] ?? '');
      const exported = JSON.parse(body) as OtlpExport;
      for (const resourceSpans of exported.resourceSpans ?? []) {
        const resource = decodeAttributes(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push(decodeSpan(span, resource));
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    bodies,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeSpan(span: OtlpSpan, resource: Record<string, unknown>): ReceivedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId || undefined,
    name: span.name,
    kind: span.kind,
    startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
    endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
    attributes: decodeAttributes(span.attributes),
    statusCode: span.status?.code ?? 0,
    resource,
  };
}

function decodeAttributes(attributes: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

function decodeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
