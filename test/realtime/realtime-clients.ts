import type { IncomingMessage } from 'node:http';
import { once } from 'node:events';
import type OpenAI from 'openai';
import type { OpenAIRealtimeError } from 'openai/realtime/internal-base';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import WebSocket, { type ClientOptions } from 'ws';
import { plainWebSocketConnection } from '../helpers/plain-websocket-connection.js';

/**
 * Clients of the gateway's `GET /v1/realtime`: the `openai` SDK's `OpenAIRealtimeWS` (what users
 * run), a raw `ws` client speaking as a browser does, and an upgrade the gateway refuses.
 */

export interface Closed {
  code: number;
  reason: string;
}

/**
 * The SDK's client: every event it receives, errors apart (as the SDK reports them), the 101
 * answer's headers, and `event(type, count)`: the count-th event of a type once it arrived.
 */
export function sdkSession(client: OpenAI, model: string) {
  const realtime = new OpenAIRealtimeWS(
    { model, options: { createConnection: plainWebSocketConnection } },
    client,
  );
  const events: RealtimeServerEvent[] = [];
  const errors: OpenAIRealtimeError[] = [];
  const waiters: (() => boolean)[] = [];
  const settle = () => waiters.splice(0).forEach((check) => check() || waiters.push(check));
  realtime.on('event', (event) => {
    events.push(event);
    settle();
  });
  realtime.on('error', (error) => {
    errors.push(error);
    settle();
  });
  const event = <Type extends RealtimeServerEvent['type']>(type: Type, count = 1) =>
    new Promise<Extract<RealtimeServerEvent, { type: Type }>>((resolve) => {
      const check = () => {
        const found = events.filter((item) => item.type === type)[count - 1];
        if (found) resolve(found as Extract<RealtimeServerEvent, { type: Type }>);
        return found !== undefined;
      };
      if (!check()) waiters.push(check);
    });
  const errorCount = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => errors.length >= count && (resolve(), true);
      if (!check()) waiters.push(check);
    });
  const upgraded = new Promise<IncomingMessage>((resolve) => realtime.socket.once('upgrade', resolve));
  const closed = closedOf(realtime.socket);
  return { realtime, events, errors, event, errorCount, upgraded, closed };
}

/** A raw `ws` client: every frame it receives (JSON parsed, binary as bytes), and waits on them. */
export function rawSession(
  origin: string,
  options: { query?: string; protocols?: string[]; headers?: Record<string, string> } & ClientOptions = {},
) {
  const { query, protocols, ...clientOptions } = options;
  const url = `${origin.replace('http:', 'ws:')}/v1/realtime${query ?? '?model=gpt-realtime'}`;
  const socket = new WebSocket(url, protocols ?? [], clientOptions);
  const frames: (Record<string, unknown> | Buffer | string)[] = [];
  const waiters: (() => boolean)[] = [];
  socket.on('message', (data, isBinary) => {
    const bytes = data as Buffer;
    if (isBinary) frames.push(bytes);
    else {
      try {
        frames.push(JSON.parse(bytes.toString()) as Record<string, unknown>);
      } catch {
        frames.push(bytes.toString());
      }
    }
    waiters.splice(0).forEach((check) => check() || waiters.push(check));
  });
  socket.on('error', () => undefined);
  const messages = () => frames.filter((frame): frame is Record<string, unknown> => isEvent(frame));
  const next = (type: string, count = 1) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const check = () => {
        const found = messages().filter((message) => message.type === type)[count - 1];
        if (found) resolve(found);
        return found !== undefined;
      };
      if (!check()) waiters.push(check);
    });
  const frameCount = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => frames.length >= count && (resolve(), true);
      if (!check()) waiters.push(check);
    });
  const opened = once(socket, 'open');
  const closed = closedOf(socket);
  return { socket, frames, messages, next, frameCount, opened, closed };
}

/** What the gateway answered an upgrade it refused: status, headers and the JSON body. */
export async function refusedUpgrade(
  url: string,
  options: { protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: any }> {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
  socket.on('error', () => undefined);
  const [, response] = (await once(socket, 'unexpected-response')) as [unknown, IncomingMessage];
  let text = '';
  for await (const chunk of response) text += String(chunk);
  socket.terminate();
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

function isEvent(frame: unknown): frame is Record<string, unknown> {
  return typeof frame === 'object' && frame !== null && !Buffer.isBuffer(frame);
}

/** The close, however it came (`events.once` would reject on an `error` before it). */
function closedOf(socket: WebSocket): Promise<Closed> {
  return new Promise((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
}
