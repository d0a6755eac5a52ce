import { WebSocketServer } from 'ws';
import type { FakeUpgrade, FakeUsage } from './fake-upstream.js';
import { realtimeAdmission } from './openai-realtime-admission.js';
import { FakeRealtimeConnection, type FakeRealtimeStep } from './openai-realtime-connection.js';

/**
 * The OpenAI fake's Realtime API: `GET /v1/realtime?model=...` upgraded to a WebSocket on the
 * fake's own server (https://platform.openai.com/docs/guides/realtime-websocket).
 *
 *   fake.realtime.connections          // every socket opened, in order (refused sessions too)
 *   await fake.realtime.connection(0)  // waits for the first one
 *   fake.realtime.script({ text, usage, hold: true, chunkDelayMs, audioBytes, audioChunkBytes })
 *                                      // how the coming `response.create`s are answered, one step each
 *   connection.events / .sent          // client frames received, server events sent
 *   await connection.received('response.create')
 *   connection.release()               // sends a held response's `response.done`
 *   connection.close(4000, 'reason')   // closes from the server side
 *   await connection.closed            // { code, reason } of the close, from either side
 *
 * As the real API, the upgrade succeeds whatever the key or model; a wrong key or model gets one
 * `error` event and an immediate close (3000 or 4000). To refuse the upgrade itself with an HTTP
 * status, script the fake's next request: `fake.script({ type: 'error', status: 401 })`.
 */
export interface FakeRealtime {
  connections: FakeRealtimeConnection[];
  /** Resolves once connection `index` (default the first) has opened. */
  connection(index?: number): Promise<FakeRealtimeConnection>;
  script(...steps: FakeRealtimeStep[]): void;
}

export interface FakeRealtimeServer {
  controls: FakeRealtime;
  /** `FakeVendor.upgrade`: takes `/v1/realtime`, leaves other paths to the harness's 404. */
  upgrade(upgrade: FakeUpgrade): boolean;
  /** Forgets connections and scripts; open sockets stay open. */
  clear(): void;
  /** Ends every socket, for the fake's own close. */
  close(): void;
}

export function fakeOpenAIRealtime(defaults: { text: string; usage: FakeUsage }): FakeRealtimeServer {
  const connections: FakeRealtimeConnection[] = [];
  const steps: FakeRealtimeStep[] = [];
  const waiters: (() => boolean)[] = [];
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}fake${String(++idCounter).padStart(4, '0')}`;
  // Browsers offer `realtime` beside the key's subprotocol; the API answers with `realtime`.
  const server = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('realtime') ? 'realtime' : false),
  });

  return {
    controls: {
      connections,
      connection: (index = 0) =>
        new Promise((resolve) => {
          const check = () => {
            const found = connections[index];
            if (found) resolve(found);
            return found !== undefined;
          };
          if (!check()) waiters.push(check);
        }),
      script: (...more) => void steps.push(...more),
    },
    upgrade({ request, incoming, socket, head, isValidKey }) {
      if (request.path !== '/v1/realtime') return false;
      server.handleUpgrade(incoming, socket, head, (webSocket) => {
        const connection = new FakeRealtimeConnection({
          socket: webSocket,
          request,
          nextId,
          nextStep: () => steps.shift() ?? {},
          defaults,
        });
        const refusal = realtimeAdmission(request, isValidKey);
        if (refusal) connection.refuse(refusal);
        else connection.open();
        connections.push(connection);
        for (const check of waiters.splice(0)) if (!check()) waiters.push(check);
      });
      return true;
    },
    clear() {
      connections.length = 0;
      steps.length = 0;
    },
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
