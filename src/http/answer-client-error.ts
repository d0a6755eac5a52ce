import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError } from '../errors/gateway-error.js';
import { MAX_URL_BYTES } from './check-request-head.js';
import { renderError } from './render-error.js';
import { nextRequestId, REQUEST_ID_HEADER } from './request-id.js';

/** What Node reports on a connection's `clientError` event (a parse error carries the packet). */
export interface ClientConnectionError {
  code?: string;
  rawPacket?: unknown;
}

export interface ClientErrorOptions {
  /** The live `client_headers_timeout_s`, named in the 408's message. */
  headersTimeoutSeconds: () => number;
}

/** How long an answered connection still reads (and drops) what the client sends before it is closed. */
const LINGER_MS = 2000;

/** Errors that leave nobody to answer: the client is gone or the socket already failed. */
const CONNECTION_GONE = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'HPE_INVALID_EOF_STATE',
]);

/** Parser errors (llhttp codes) by the part of the request that is malformed. */
const MALFORMED_PART = new Map<string, string>([
  ['HPE_INVALID_METHOD', 'invalid method'],
  ['HPE_INVALID_URL', 'invalid request target'],
  ['HPE_INVALID_VERSION', 'invalid HTTP version'],
  ['HPE_INVALID_CONSTANT', 'invalid request line'],
  ['HPE_UNEXPECTED_SPACE', 'unexpected whitespace'],
  ['HPE_INVALID_HEADER_TOKEN', 'invalid header'],
  ['HPE_LF_EXPECTED', 'invalid line ending'],
  ['HPE_CR_EXPECTED', 'invalid line ending'],
  ['HPE_INVALID_CONTENT_LENGTH', 'invalid Content-Length'],
  ['HPE_UNEXPECTED_CONTENT_LENGTH', 'conflicting Content-Length'],
  ['HPE_INVALID_TRANSFER_ENCODING', 'invalid Transfer-Encoding'],
  ['HPE_INVALID_CHUNK_SIZE', 'invalid chunked encoding'],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 'chunk extensions too large'],
]);

/** Connections already answered: later errors of their failed parser are not answered again. */
const answered = new WeakSet<Socket>();

/**
 * The answers the HTTP layer gives by itself, before any request exists (Fastify's
 * `clientErrorHandler`, https://nodejs.org/api/http.html#event-clienterror): a request line or
 * headers too large, a malformed request, headers that did not arrive in time. Each is a full raw
 * HTTP/1.1 response in the family A error shape with a fresh request id, and closes the connection.
 * Headers are not parsed yet, so the language is English.
 */
export function createClientErrorHandler(options: ClientErrorOptions) {
  return function answerClientError(error: ClientConnectionError, socket: Socket): void {
    if (answered.has(socket)) return;
    const code = error.code ?? '';
    if (CONNECTION_GONE.has(code) || !socket.writable) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const answer = toGatewayError(code, error.rawPacket, options);
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!inFlight) {
      // After a timeout the parser is intact and would read on: close once the answer is out.
      answerAndClose(socket, answer, { closeWhenWritten: code === 'ERR_HTTP_REQUEST_TIMEOUT' });
    } else if (!inFlight.req.complete) {
      // The fault is in the body of the request being handled, which can never be answered now;
      // a reply already under way cannot be followed by another one.
      if (inFlight.headersSent) socket.destroy();
      else answerAndClose(socket, answer, { closeWhenWritten: true });
    } else {
      // A pipelined request failed while the one before it is still being answered: that answer
      // goes out first, in order.
      whenDone(inFlight, () => {
        if (socket.writable) answerAndClose(socket, answer, { closeWhenWritten: true });
        else socket.destroy();
      });
    }
  };
}

function answerAndClose(socket: Socket, error: GatewayError, options: { closeWhenWritten: boolean }): void {
  socket.end(rawErrorResponse(error));
  if (options.closeWhenWritten) socket.once('finish', () => socket.destroy());
  // Closing with input still unread makes the kernel reset the connection, and a reset can
  // discard the answer before the client reads it: a failed parser reads on (and drops what it
  // reads) until the client closes, or for a moment at most.
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

function whenDone(response: ServerResponse, then: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    then();
  };
  response.once('finish', once);
  response.once('close', once);
}

function toGatewayError(code: string, rawPacket: unknown, options: ClientErrorOptions): GatewayError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GatewayError('request_timeout', { seconds: options.headersTimeoutSeconds() });
    case 'HPE_HEADER_OVERFLOW':
      return requestLineOverflowed(rawPacket)
        ? new GatewayError('request_uri_too_long', { limit: MAX_URL_BYTES })
        : new GatewayError('request_header_too_large', { limit: maxHeaderSize });
    default:
      return new GatewayError('bad_request', { detail: MALFORMED_PART.get(code) ?? 'malformed request' });
  }
}

/**
 * Whether the header buffer overflowed while the request line was still being read: the packet
 * that overflowed has no line end yet, or its first line is longer than any accepted URL. (A packet
 * that continues one endless header line looks the same; that client gets a 414 for its 431.)
 */
function requestLineOverflowed(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  const lineEnd = rawPacket.indexOf(0x0a);
  return lineEnd < 0 || lineEnd > MAX_URL_BYTES;
}

function rawErrorResponse(error: GatewayError): Buffer {
  const requestId = nextRequestId();
  const rendered = renderError(error, {
    requestId,
    clientIp: '',
    language: 'en',
    errorShape: 'openai',
    principal: undefined,
    startedAt: 0,
  });
  const body = JSON.stringify(rendered.body);
  const head = [
    `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${REQUEST_ID_HEADER}: ${requestId}`,
    'Connection: close',
    `Date: ${new Date().toUTCString()}`,
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}
