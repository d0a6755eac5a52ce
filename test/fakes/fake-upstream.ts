/**
 * Fake upstream vendors for tests: real wire shapes, on 127.0.0.1 with a random port.
 *
 *   const fake = await startFakeOpenAI({ apiKey: 'sk-upstream' }); // or startFakeAnthropic, startFakeGemini
 *     options: apiKey (one or several accepted keys), replyText, usage (defaults for every reply)
 *   fake.origin       // 'http://127.0.0.1:<port>': a channel's base_url, or an SDK's base URL
 *   fake.requests     // every request received, in order: { method, url, path, headers, body }
 *   fake.script(step, ...)   // queue behaviours, one per coming request; then normal replies again
 *     { type: 'reply', text?, thinking?, usage?, toolCall?, toolArguments?, toolCallCount?,
 *       interleaveToolCalls?, refusal?, omitUsage?, delayMs?, chunkDelayMs?, audioBytes?, audioChunkBytes? }
 *     { type: 'error', status: 429, message?, code?, retryAfter?: 2 }  // vendor-shaped error body
 *     { type: 'reset' }                           // connection reset before any byte
 *     { type: 'reset-mid-stream', afterChunks: 2 } // headers and 2 chunks, then a reset
 *     { type: 'stall', afterChunks: 1 }           // headers and 1 chunk, then silence
 *     { type: 'end-mid-stream', afterChunks: 2 }  // headers and 2 chunks, then a clean end without the rest
 *     { type: 'cut-mid-frame', afterChunks: 2 }   // 2 chunks and the first half of the next, then a clean end
 *     { type: 'error-mid-stream', afterChunks: 2, message? } // 2 chunks, the vendor's own stream error event, end
 *     { type: 'raw-stream', chunks: ['data: {oops\n\n'] } // a 200 stream of exactly these chunks (text or bytes, such as AWS event-stream frames), then end
 *     Every step takes `delayMs` (wait before the first byte); reply overrides work on the steps that
 *     send part of a reply (reset-mid-stream to error-mid-stream).
 *   fake.scriptAlways(step)  // for every request once the queue is empty; undefined to stop
 *     A WebSocket upgrade is a request too: it is recorded, and takes a step (`error` refuses the
 *     upgrade with that status, `reset` drops it, any other step opens the socket).
 *   fake.clear()             // forget recorded requests and scripts
 *   fake.validateRequests(false) // accept bodies the real API refuses (on by default; also an option)
 *   await fake.close()
 *
 * A chunk is one SSE event of a stream, one binary frame of an AWS event stream, one piece of a
 * binary body (speech audio), or the whole body of a JSON reply. A `multipart/form-data` request
 * is read with busboy: `multipart` keeps every part (file bytes, filename, content type) and
 * `body` its text fields. Usage counts are vendor-neutral (`FakeUsage`); each vendor file maps them to its
 * own fields. A wrong or missing
 * key gets a 401 in the vendor's error shape. A body the real API would refuse gets a 400 in the
 * vendor's error shape, with the vendor's wording (see `validate-*-request.ts`), and the recorded
 * request keeps the problem in `refused`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { refuseUpgrade, replyWire, sendJson, write, writeRawStream } from './fake-reply-wire.js';
import type { RecordedMultipart } from './parse-multipart.js';
import { recordRequest, recordUpgrade } from './record-request.js';

/** Input counts include cached and cache-write tokens; output counts include reasoning tokens. */
export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /**
   * The audio parts of those counts, and the input audio's length, for the audio and realtime
   * endpoints; optional so that usage written for text endpoints stays complete without them.
   */
  inputAudioTokens?: number;
  cachedAudioTokens?: number;
  outputAudioTokens?: number;
  audioSeconds?: number;
}

export interface ReplyOverrides {
  text?: string;
  /** Reasoning text, shown where the request asked for it (Anthropic thinking, Gemini thoughts). */
  thinking?: string;
  usage?: Partial<FakeUsage>;
  /** Reply with a call of the request's first tool; default: whenever the request has tools. */
  toolCall?: boolean;
  toolArguments?: string;
  /** How many calls of that tool the reply makes at once (parallel tool calls), each with its own id; default 1. */
  toolCallCount?: number;
  /** Stream the calls' argument deltas interleaved, call by call in turn, where the protocol allows it (chat completions). */
  interleaveToolCalls?: boolean;
  /** The model refuses: the vendor's own refusal or safety stop instead of an answer. */
  refusal?: boolean;
  /** Pause between stream chunks. */
  chunkDelayMs?: number;
  /** Leave the usage block out of the reply, as some vendors and endpoints do. */
  omitUsage?: boolean;
  /** Size of a speech reply's audio in bytes, and of each chunk it is sent in. */
  audioBytes?: number;
  audioChunkBytes?: number;
}

export type FakeStep = { delayMs?: number } & (
  | ({ type: 'reply' } & ReplyOverrides)
  | { type: 'error'; status: number; message?: string; code?: string; retryAfter?: number | string }
  | { type: 'reset' }
  | ({ type: 'reset-mid-stream'; afterChunks: number } & ReplyOverrides)
  | ({ type: 'stall'; afterChunks?: number } & ReplyOverrides)
  | ({ type: 'end-mid-stream'; afterChunks: number } & ReplyOverrides)
  | ({ type: 'cut-mid-frame'; afterChunks: number } & ReplyOverrides)
  | ({ type: 'error-mid-stream'; afterChunks: number; message?: string } & ReplyOverrides)
  | { type: 'raw-stream'; chunks: (string | Uint8Array)[]; chunkDelayMs?: number }
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
  /** The body's bytes as received (what a request signature covers). */
  rawBody?: Buffer;
  /** Every part of a `multipart/form-data` body; `body` then holds its text fields. */
  multipart?: RecordedMultipart;
  /** Why the fake refused the body, as the real API would have. */
  refused?: RequestProblem;
}

/** The first thing in a request body that the real API refuses, in the vendor's words. */
export interface RequestProblem {
  message: string;
  /** The offending field, where the vendor names it (OpenAI's `param`). */
  param?: string | null;
  /** The vendor's error code, where it has one (OpenAI's `code`). */
  code?: string | null;
}

/** What a vendor file answers with, before scripting and framing. */
export interface ReplyContent {
  text: string;
  thinking: string;
  usage: FakeUsage;
  toolCall: boolean | undefined;
  toolArguments: string;
  toolCallCount: number;
  interleaveToolCalls: boolean;
  refusal: boolean;
  omitUsage: boolean;
  /** Undefined: the endpoint's own default. */
  audioBytes?: number;
  audioChunkBytes?: number;
}

export type FakeReply =
  | { kind: 'json'; body: unknown }
  | { kind: 'sse'; events: string[] }
  /** Binary AWS event-stream frames (`application/vnd.amazon.eventstream`), with the reply's own headers. */
  | { kind: 'event-stream'; frames: Uint8Array[]; headers?: Record<string, string> }
  /** A body of this content type, sent as these chunks (speech audio, plain-text transcripts). */
  | { kind: 'bytes'; contentType: string; chunks: (string | Uint8Array)[] };

/** Why the credentials are refused; `code` names the vendor's error where it has one. */
export interface FakeDenial {
  status: number;
  message: string;
  code?: string;
}

export interface FakeVendor {
  defaultText: string;
  /** The error to answer with when the credentials are wrong or missing. */
  authenticate(
    request: RecordedRequest,
    isValidKey: (presented: unknown) => boolean,
  ): FakeDenial | undefined | Promise<FakeDenial | undefined>;
  /** `request` is absent only for a failure before the request was read. */
  errorBody(
    status: number,
    message: string,
    detail?: Pick<RequestProblem, 'param' | 'code'>,
    request?: RecordedRequest,
  ): unknown;
  /** Headers of an error reply beside its body, where the vendor sends some (AWS's `x-amzn-errortype`). */
  errorHeaders?(status: number, detail?: Pick<RequestProblem, 'code'>): Record<string, string>;
  /** The first problem the real API would refuse this request for; undefined when it would take it. */
  validate(request: RecordedRequest): RequestProblem | undefined;
  /** The vendor's own error event inside a stream of the request's endpoint. */
  streamErrorEvent(request: RecordedRequest, message: string): string | Uint8Array;
  /** Undefined: no such endpoint (404). `nextId` gives deterministic ids. */
  reply(
    request: RecordedRequest,
    content: ReplyContent,
    nextId: (prefix: string) => string,
  ): FakeReply | undefined;
  /** Takes a WebSocket upgrade (OpenAI Realtime); false, or no method: no WebSocket at that path (404). */
  upgrade?(upgrade: FakeUpgrade): boolean;
}

/** A WebSocket upgrade request, recorded in `requests` like any other, for the vendor to take. */
export interface FakeUpgrade {
  request: RecordedRequest;
  incoming: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  isValidKey: (presented: unknown) => boolean;
}

export interface FakeUpstreamOptions {
  /** The key or keys the fake accepts; default `test-upstream-key`. */
  apiKey?: string | string[];
  replyText?: string;
  usage?: Partial<FakeUsage>;
  /** Refuse bodies the real API refuses (default true); off for tests that send odd bodies on purpose. */
  validateRequests?: boolean;
}

export interface FakeUpstream {
  origin: string;
  requests: RecordedRequest[];
  script(...steps: FakeStep[]): void;
  scriptAlways(step: FakeStep | undefined): void;
  clear(): void;
  validateRequests(enabled: boolean): void;
  close(): Promise<void>;
}

export const defaultFakeUsage: FakeUsage = {
  inputTokens: 20,
  outputTokens: 12,
  cachedTokens: 8,
  cacheWriteTokens: 4,
  reasoningTokens: 5,
  inputAudioTokens: 6,
  cachedAudioTokens: 2,
  outputAudioTokens: 7,
  audioSeconds: 3,
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
  let validating = options.validateRequests ?? true;
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}fake${String(++idCounter).padStart(4, '0')}`;

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const sendError = (
      status: number,
      message: string,
      detail?: Pick<RequestProblem, 'param' | 'code'>,
      headers: Record<string, string> = {},
    ) =>
      sendJson(response, status, vendor.errorBody(status, message, detail, request), {
        ...vendor.errorHeaders?.(status, detail),
        ...headers,
      });
    const request = await recordRequest(incoming);
    requests.push(request);
    const step = queue.shift() ?? always ?? { type: 'reply' };
    if (step.delayMs) await sleep(step.delayMs);
    if (step.type === 'reset') return void incoming.socket.resetAndDestroy();
    const denied = await vendor.authenticate(request, isValidKey);
    if (denied)
      return sendError(
        denied.status,
        denied.message,
        denied.code === undefined ? undefined : { code: denied.code },
      );
    if (step.type === 'error') {
      const headers: Record<string, string> =
        step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) };
      const message = step.message ?? `Fake upstream error ${step.status}`;
      return sendError(
        step.status,
        message,
        step.code === undefined ? undefined : { code: step.code },
        headers,
      );
    }
    const refused = validating ? vendor.validate(request) : undefined;
    if (refused) {
      request.refused = refused;
      return sendError(400, refused.message, refused);
    }
    if (step.type === 'raw-stream') return writeRawStream(response, step);
    const content: ReplyContent = {
      text: step.text ?? options.replyText ?? vendor.defaultText,
      thinking: step.thinking ?? 'Let me think about that.',
      usage: { ...defaultFakeUsage, ...options.usage, ...step.usage },
      toolCall: step.toolCall,
      toolArguments: step.toolArguments ?? '{"query":"weather in Paris"}',
      toolCallCount: step.toolCallCount ?? 1,
      interleaveToolCalls: step.interleaveToolCalls ?? false,
      refusal: step.refusal ?? false,
      omitUsage: step.omitUsage ?? false,
      audioBytes: step.audioBytes,
      audioChunkBytes: step.audioChunkBytes,
    };
    const reply = vendor.reply(request, content, nextId);
    if (!reply) return sendError(404, `Unknown path ${request.method} ${request.path}`);
    const { chunks, headers } = replyWire(reply);
    response.writeHead(200, headers);
    const limit = step.type === 'reply' ? chunks.length : (step.afterChunks ?? 0);
    for (const [index, chunk] of chunks.slice(0, limit).entries()) {
      if (index > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
      if (!(await write(response, chunk))) return;
    }
    if (step.type === 'reply' || step.type === 'end-mid-stream') return void response.end();
    if (step.type === 'cut-mid-frame') {
      const next = chunks[limit] ?? '';
      await write(response, next.slice(0, Math.ceil(next.length / 2)));
      return void response.end();
    }
    if (step.type === 'error-mid-stream') {
      await write(response, vendor.streamErrorEvent(request, step.message ?? 'Fake upstream stream error'));
      return void response.end();
    }
    response.flushHeaders();
    if (step.type === 'reset-mid-stream') {
      // Let the chunks already written reach the client before the reset.
      await sleep(20);
      incoming.socket.resetAndDestroy();
    }
  }

  async function handleUpgrade(incoming: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const request = recordUpgrade(incoming);
    requests.push(request);
    const step = queue.shift() ?? always ?? { type: 'reply' };
    if (step.delayMs) await sleep(step.delayMs);
    if (step.type === 'reset') return void socket.destroy();
    if (step.type === 'error') {
      const detail = step.code === undefined ? undefined : { code: step.code };
      const message = step.message ?? `Fake upstream error ${step.status}`;
      const retryAfter: Record<string, string> =
        step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) };
      return refuseUpgrade(socket, {
        status: step.status,
        body: vendor.errorBody(step.status, message, detail, request),
        headers: { ...vendor.errorHeaders?.(step.status, detail), ...retryAfter },
      });
    }
    if (vendor.upgrade?.({ request, incoming, socket, head, isValidKey })) return;
    const message = `Unknown path ${request.method} ${request.path}`;
    refuseUpgrade(socket, { status: 404, body: vendor.errorBody(404, message, undefined, request) });
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, vendor.errorBody(500, String(error)), vendor.errorHeaders?.(500));
      else response.destroy();
    });
  });
  server.on('upgrade', (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    handleUpgrade(incoming, socket, head).catch(() => socket.destroy());
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
    validateRequests: (enabled) => void (validating = enabled),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lenient access to a parsed request body. */
export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
