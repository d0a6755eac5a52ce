import { connect, type createConnection, type TcpNetConnectOpts } from 'node:net';

/**
 * A `createConnection` for `ws` clients that opens plain TCP where the URL says `wss:`.
 * `OpenAIRealtimeWS` always dials `wss:` (it rewrites the base URL's scheme), while the fakes and
 * the gateway under test listen on plain HTTP on 127.0.0.1: pass this as
 * `options: { createConnection: plainWebSocketConnection }`.
 */
export const plainWebSocketConnection = ((options: TcpNetConnectOpts) =>
  // `path` in these options is the request's path, which `net` would take for a Unix socket.
  connect({ host: options.host, port: options.port })) as typeof createConnection;
