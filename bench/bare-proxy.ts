/**
 * The floor any gateway on Node reaches: plain `node:http` and undici with nothing else. It looks
 * the bearer key up in a `Map` (by its SHA-256, so no key is compared byte by byte), parses the JSON
 * body and forwards it to `UPSTREAM` over a keep-alive Agent, piping the reply back as it arrives.
 * Chat completions and messages go to the same path upstream. No database, no billing, no logging,
 * no conversion; with `BARE_PROXY_LEDGER_DIR` set, the money moves alone (`money-moves.ts`).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { openMoneyMoves } from './money-moves.js';

const port = Number(process.env.PORT ?? 0);
const upstream = process.env.UPSTREAM ?? 'http://127.0.0.1:8080';
const upstreamKey = process.env.UPSTREAM_KEY ?? 'upstream-key';
const keys = new Map([[digest(process.env.BARE_PROXY_KEY ?? 'bare-proxy-key'), 'bench-user']]);
const routes = new Set(['/v1/chat/completions', '/v1/messages']);
const ledgerDir = process.env.BARE_PROXY_LEDGER_DIR;
const moneyMoves =
  ledgerDir === undefined
    ? undefined
    : await openMoneyMoves(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), ledgerDir);
let requests = 0;

const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });

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

async function forward(
  clientRequest: IncomingMessage,
  response: ServerResponse,
  text: string,
): Promise<void> {
  const path = clientRequest.url ?? '';
  if (clientRequest.method !== 'POST' || !routes.has(path)) return refuse(response, 404, 'not found');
  const key = bearerKey(clientRequest);
  if (key === undefined || !keys.has(digest(key))) return refuse(response, 401, 'invalid key');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(response, 400, 'the body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refuse(response, 400, 'the body must be a JSON object');
  const requestId = `bare-${process.pid}-${(requests += 1)}`;
  const startedAt = performance.now();
  const reservation = await moneyMoves?.reserve(requestId);
  const upstreamReply = await request(`${upstream}${path}`, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      authorization: `Bearer ${upstreamKey}`,
      'x-api-key': upstreamKey,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
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
    forward(clientRequest, response, Buffer.concat(parts).toString('utf8')).catch(() => {
      if (!response.headersSent) refuse(response, 502, 'upstream failed');
      else response.destroy();
    });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const listening = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`bare proxy ready on http://127.0.0.1:${listening}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void agent.close();
});
