import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent, request } from 'undici';
import type { MoneyMoves } from './money-moves.js';

/**
 * The floor any gateway on Node reaches: plain `node:http` and undici with nothing else. It looks
 * the bearer key up in a `Map` (by its SHA-256, so no key is compared byte by byte), parses the JSON
 * body to refuse what is not a JSON object, and forwards the bytes it received (as the gateway's
 * passthrough does, never `JSON.stringify` of the parse) to `upstream` over a keep-alive Agent,
 * piping the reply back as it arrives. Chat completions and messages go to the same path upstream.
 * No database, no billing, no logging, no conversion; with `moneyMoves`, the money moves alone.
 */
export interface BareProxyOptions {
  upstream: string;
  upstreamKey: string;
  /** The one client key it takes. */
  proxyKey: string;
  moneyMoves?: MoneyMoves | undefined;
}

export interface BareProxy {
  server: Server;
  agent: Agent;
}

const routes = new Set(['/v1/chat/completions', '/v1/messages']);

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

function bearerKey(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization ?? request.headers['x-api-key'];
  if (typeof header !== 'string') return undefined;
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length) : header;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error' } });
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

export function createBareProxy(options: BareProxyOptions): BareProxy {
  const keys = new Set([digest(options.proxyKey)]);
  const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
  const { moneyMoves } = options;
  let requests = 0;

  async function forward(clientRequest: IncomingMessage, response: ServerResponse, bytes: Buffer) {
    const path = clientRequest.url ?? '';
    if (clientRequest.method !== 'POST' || !routes.has(path)) return refuse(response, 404, 'not found');
    const key = bearerKey(clientRequest);
    if (key === undefined || !keys.has(digest(key))) return refuse(response, 401, 'invalid key');
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      return refuse(response, 400, 'the body is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return refuse(response, 400, 'the body must be a JSON object');
    const requestId = `bare-${process.pid}-${(requests += 1)}`;
    const startedAt = performance.now();
    const reservation = await moneyMoves?.reserve(requestId);
    const upstreamReply = await request(`${options.upstream}${path}`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${options.upstreamKey}`,
        'x-api-key': options.upstreamKey,
        'content-type': 'application/json',
      },
      body: bytes,
    });
    const headers: Record<string, string> = {};
    const contentType = upstreamReply.headers['content-type'];
    if (typeof contentType === 'string') headers['content-type'] = contentType;
    const contentLength = upstreamReply.headers['content-length'];
    if (typeof contentLength === 'string') headers['content-length'] = contentLength;
    response.writeHead(upstreamReply.statusCode, headers);
    // A client that leaves ends the upstream call with it.
    response.once('close', () => upstreamReply.body.destroy());
    upstreamReply.body.pipe(response);
    if (!moneyMoves) return;
    const reply: Buffer[] = [];
    upstreamReply.body.on('data', (part: Buffer) => reply.push(part));
    upstreamReply.body.once('end', () => {
      const latencyMs = Math.round(performance.now() - startedAt);
      void moneyMoves.settle(reservation, requestId, Buffer.concat(reply), latencyMs);
    });
  }

  const server = createServer((clientRequest, response) => {
    const parts: Buffer[] = [];
    clientRequest.on('data', (part: Buffer) => parts.push(part));
    clientRequest.on('end', () => {
      forward(clientRequest, response, Buffer.concat(parts)).catch(() => {
        if (!response.headersSent) refuse(response, 502, 'upstream failed');
        else response.destroy();
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  return { server, agent };
}
