/**
 * Fake upstream vendors for tests: real wire shapes, on 127.0.0.1 with a random port.
 *
 *   const fake = await startFakeOpenAI({ apiKey: 'sk-upstream' }); // or startFakeAnthropic, startFakeGemini
 *     options: apiKey (one or several accepted keys), replyText, usage (defaults for every reply)
 *   fake.origin       // 'http://127.0.0.1:<port>': a channel's base_url, or an SDK's base URL
 *   fake.requests     // every request received, in order: { method, url, path, headers, body }
 *   fake.script(step, ...)   // queue behaviours, one per coming request; then normal replies again
 *     { type: 'reply', text?, thinking?, usage?, toolCall?, toolArguments?, delayMs?, chunkDelayMs? }
 *     { type: 'error', status: 429, message?, retryAfter?: 2 }  // vendor-shaped error body
 *     { type: 'reset' }                           // connection reset before any byte
 *     { type: 'reset-mid-stream', afterChunks: 2 } // headers and 2 chunks, then a reset
 *     { type: 'stall', afterChunks: 1 }           // headers and 1 chunk, then silence
 *     Every step takes `delayMs` (wait before the first byte); reply overrides work on the last two.
 *   fake.scriptAlways(step)  // for every request once the queue is empty; undefined to stop
 *   fake.clear()             // forget recorded requests and scripts
 *   await fake.close()
 *
 * A chunk is one SSE event of a stream, or the whole body of a JSON reply. Usage counts are
 * vendor-neutral (`FakeUsage`); each vendor file maps them to its own fields. A wrong or missing
 * key gets a 401 in the vendor's error shape.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Input counts include cached and cache-write tokens; output counts include reasoning tokens. */
export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export interface ReplyOverrides {
  text?: string;
  /** Reasoning text, shown where the request asked for it (Anthropic thinking, Gemini thoughts). */
  thinking?: string;
  usage?: Partial<FakeUsage>;
  /** Reply with a call of the request's first tool; default: whenever the request has tools. */
  toolCall?: boolean;
  toolArguments?: string;
  /** Pause between stream chunks. */
  chunkDelayMs?: number;
}

export type FakeStep = { delayMs?: number } & (
  | ({ type: 'reply' } & ReplyOverrides)
  | { type: 'error'; status: number; message?: string; retryAfter?: number | string }
  | { type: 'reset' }
  | ({ type: 'reset-mid-stream'; afterChunks: number } & ReplyOverrides)
  | ({ type: 'stall'; afterChunks?: number } & ReplyOverrides)
);

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
}

/** What a vendor file answers with, before scripting and framing. */
export interface ReplyContent {
  text: string;
  thinking: string;
  usage: FakeUsage;
  toolCall: boolean | undefined;
  toolArguments: string;
}

export type FakeReply = { kind: 'json'; body: unknown } | { kind: 'sse'; events: string[] };

export interface FakeVendor {
  defaultText: string;
  /** The error to answer with when the credentials are wrong or missing. */
  authenticate(
    request: RecordedRequest,
    isValidKey: (presented: unknown) => boolean,
  ): { status: number; message: string } | undefined;
  errorBody(status: number, message: string): unknown;
  /** Undefined: no such endpoint (404). `nextId` gives deterministic ids. */
  reply(
    request: RecordedRequest,
    content: ReplyContent,
    nextId: (prefix: string) => string,
  ): FakeReply | undefined;
}

export interface FakeUpstreamOptions {
  /** The key or keys the fake accepts; default `test-upstream-key`. */
  apiKey?: string | string[];
  replyText?: string;
  usage?: Partial<FakeUsage>;
}

export interface FakeUpstream {
  origin: string;
  requests: RecordedRequest[];
  script(...steps: FakeStep[]): void;
  scriptAlways(step: FakeStep | undefined): void;
  clear(): void;
  close(): Promise<void>;
}

export const defaultFakeUsage: FakeUsage = {
  inputTokens: 20,
  outputTokens: 12,
  cachedTokens: 8,
  cacheWriteTokens: 4,
  reasoningTokens: 5,
};

export async function startFakeUpstream(
  vendor: FakeVendor,
  options: FakeUpstreamOptions = {},
): Promise<FakeUpstream> {
  const apiKeys = new Set([options.apiKey ?? 'test-upstream-key'].flat());
  const isValidKey = (presented: unknown) => typeof presented === 'string' && apiKeys.has(presented);
  const requests: RecordedRequest[] = [];
  const queue: FakeStep[] = [];
  let always: FakeStep | undefined;
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}fake${String(++idCounter).padStart(4, '0')}`;

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const request = await record(incoming);
    requests.push(request);
    const step = queue.shift() ?? always ?? { type: 'reply' };
    if (step.delayMs) await sleep(step.delayMs);
    if (step.type === 'reset') return void incoming.socket.resetAndDestroy();
    const denied = vendor.authenticate(request, isValidKey);
    if (denied) return sendJson(response, denied.status, vendor.errorBody(denied.status, denied.message));
    if (step.type === 'error') {
      const headers: Record<string, string> =
        step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) };
      const message = step.message ?? `Fake upstream error ${step.status}`;
      return sendJson(response, step.status, vendor.errorBody(step.status, message), headers);
    }
    const content: ReplyContent = {
      text: step.text ?? options.replyText ?? vendor.defaultText,
      thinking: step.thinking ?? 'Let me think about that.',
      usage: { ...defaultFakeUsage, ...options.usage, ...step.usage },
      toolCall: step.toolCall,
      toolArguments: step.toolArguments ?? '{"query":"weather in Paris"}',
    };
    const reply = vendor.reply(request, content, nextId);
    if (!reply)
      return sendJson(response, 404, vendor.errorBody(404, `Unknown path ${request.method} ${request.path}`));
    const chunks = reply.kind === 'json' ? [JSON.stringify(reply.body)] : reply.events;
    response.writeHead(200, reply.kind === 'json' ? jsonHeaders : sseHeaders);
    const limit = step.type === 'reply' ? chunks.length : (step.afterChunks ?? 0);
    for (const [index, chunk] of chunks.slice(0, limit).entries()) {
      if (index > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
      if (!(await write(response, chunk))) return;
    }
    if (step.type === 'reply') return void response.end();
    response.flushHeaders();
    if (step.type === 'reset-mid-stream') {
      // Let the chunks already written reach the client before the reset.
      await sleep(20);
      incoming.socket.resetAndDestroy();
    }
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, vendor.errorBody(500, String(error)));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    script: (...steps) => void queue.push(...steps),
    scriptAlways: (step) => void (always = step),
    clear() {
      requests.length = 0;
      queue.length = 0;
      always = undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const jsonHeaders = { 'content-type': 'application/json' };
const sseHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

async function record(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const url = new URL(incoming.url ?? '/', 'http://fake.invalid');
  return {
    method: incoming.method ?? 'GET',
    url: incoming.url ?? '/',
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
    body: parseJson(text),
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

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { ...jsonHeaders, ...headers });
  response.end(JSON.stringify(body));
}

/** Resolves false when the client has gone. */
function write(response: ServerResponse, chunk: string): Promise<boolean> {
  return new Promise((resolve) => response.write(chunk, (error) => resolve(!error)));
}

/** One SSE event; Gemini separates events with CRLF pairs. */
export function sseEvent(data: unknown, options: { event?: string; separator?: string } = {}): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  const eventLine = options.event ? `event: ${options.event}\n` : '';
  return `${eventLine}data: ${payload}${options.separator ?? '\n\n'}`;
}

/** Splits text into word-sized deltas, so streams have several of them. */
export function splitIntoDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/** Fixed, so recorded replies are byte-stable. */
export const FAKE_CREATED_AT = 1_700_000_000;

/** Two argument deltas, as vendors stream tool-call arguments in pieces. */
export function splitArguments(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter(Boolean);
}

/** Lenient access to a parsed request body. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
