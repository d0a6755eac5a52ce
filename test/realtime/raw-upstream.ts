import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** One upgrade the raw upstream took: what it was asked, every frame received, and its socket. */
export interface RawUpstreamSocket {
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  socket: WebSocket;
  /** Frames in order, each with whether it came as binary. */
  frames: { data: Buffer; binary: boolean }[];
  closed: Promise<{ code: number; reason: string }>;
}

/**
 * A bare WebSocket upstream on 127.0.0.1 that takes any path: it records each upgrade and the frames
 * that arrive, byte for byte, and lets a test send any frame (binary included, which the OpenAI
 * fake never sends) or close with any code. It sends `session.created` first, as the API does.
 */
export async function startRawUpstream() {
  const sockets: RawUpstreamSocket[] = [];
  const waiters: (() => boolean)[] = [];
  const settle = () => waiters.splice(0).forEach((check) => check() || waiters.push(check));
  const webSockets = new WebSocketServer({ noServer: true });
  const server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      const url = new URL(request.url ?? '/', 'http://upstream');
      const recorded: RawUpstreamSocket = {
        url: request.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        socket: webSocket,
        frames: [],
        closed: once(webSocket, 'close').then(([code, reason]) => ({
          code: code as number,
          reason: String(reason),
        })),
      };
      webSocket.on('message', (data, binary) => {
        recorded.frames.push({ data: data as Buffer, binary });
        settle();
      });
      webSocket.send(JSON.stringify({ type: 'session.created', event_id: 'event_raw_1', session: {} }));
      sockets.push(recorded);
      settle();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      const test = () => check() && (resolve(), true);
      if (!test()) waiters.push(test);
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    sockets,
    /** Resolves with upgrade `index` once it arrived. */
    socket: async (index = 0) => {
      await until(() => sockets[index] !== undefined);
      return sockets[index]!;
    },
    /** Resolves once upgrade `index` received `count` frames. */
    frames: async (count: number, index = 0) => {
      await until(() => (sockets[index]?.frames.length ?? 0) >= count);
      return sockets[index]!.frames;
    },
    close: async () => {
      for (const client of webSockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
