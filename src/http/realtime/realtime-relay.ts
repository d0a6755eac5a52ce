import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { authenticate } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { checkRequestHead } from '../check-request-head.js';
import { renderError, toGatewayError } from '../render-error.js';
import type { RequestContext } from '../request-context.js';
import { REQUEST_ID_HEADER } from '../request-id.js';
import type { RequestObservation, RequestOutcome } from '../../relay/relay-observer.js';
import type { GatewayServices } from '../../services.js';
import { BudgetWindowsRepository } from '../../store/budget-windows-repository.js';
import { admitSession, type SessionAdmission } from './admit-session.js';
import { Heartbeat } from './heartbeat.js';
import { upgradeAccessLog } from './log-upgrade.js';
import { openSession, type OpenedSession } from './open-session.js';
import { REALTIME_ENDPOINT } from './response-meter.js';
import { upgradeContextFactory } from './upgrade-context.js';
import {
  isWebSocketHandshake,
  readUpgradeRequest,
  REALTIME_PATH,
  REALTIME_PROTOCOL,
  type UpgradeRequest,
} from './upgrade-request.js';
import { writeHttpRefusal, type HttpRefusal } from './write-http-refusal.js';

/** The Realtime API's WebSocket on the gateway's own port (admin-api section 14). */
export interface RealtimeRelay {
  /** Sessions relayed now. */
  readonly openSessions: number;
  /**
   * Shutdown: new upgrades are refused (503), and each open session closes (1001) once no response
   * of its runs; the relay tracker ends what is left when the grace period is over.
   */
  drain(): void;
  /** Resolves once no session is open: their usage records and slots are settling. */
  closed(): Promise<void>;
}

export interface RealtimeRelayOptions {
  /** How often each socket is pinged; one that has not answered by the next ping is closed. */
  heartbeatMs?: number;
}

/** `input_audio_buffer.append` takes up to 15 MiB of audio in one event. */
const MAX_CLIENT_FRAME_BYTES = 16 * 1024 * 1024;
/** An upstream's events (a conversation item retrieved whole, with its audio) may be larger. */
const MAX_UPSTREAM_FRAME_BYTES = 64 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;

/**
 * Takes every WebSocket upgrade the gateway's HTTP server receives: `GET /v1/realtime?model=` is
 * checked as an HTTP request is (key from `Authorization` or the browser's key subprotocol, Model
 * Limits, IP allow list, channel, price, room to spend, concurrency), refused with the same status
 * and body when it fails, and accepted only once an upstream's socket is open; any other path is
 * answered as an unknown URL.
 */
export function attachRealtimeRelay(
  server: Server,
  services: GatewayServices,
  options: RealtimeRelayOptions = {},
): RealtimeRelay {
  const webSockets = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: MAX_CLIENT_FRAME_BYTES,
    // Offered beside the key's subprotocol by browsers, and echoed as OpenAI does.
    handleProtocols: (offered) => (offered.has(REALTIME_PROTOCOL) ? REALTIME_PROTOCOL : false),
  });
  const acceptHeaders = new WeakMap<IncomingMessage, string[]>();
  webSockets.on('headers', (headers, request) => headers.push(...(acceptHeaders.get(request) ?? [])));
  const contextOf = upgradeContextFactory(services.settings);
  const budgetWindows = new BudgetWindowsRepository(services.store.db);
  const heartbeat = new Heartbeat(options.heartbeatMs ?? HEARTBEAT_MS);
  const sessions = new Set<OpenedSession>();
  let closedWaiters: (() => void)[] = [];
  let draining = false;

  const logUpgrade = upgradeAccessLog(services.logger);
  const writeRefusal = (socket: Duplex, error: unknown, context: RequestContext): number => {
    const gatewayError = toGatewayError(error);
    if (gatewayError.errorName === 'internal_error')
      services.logger.error({ err: error, requestId: context.requestId }, 'unexpected error');
    const refusal = renderedRefusal(gatewayError, context);
    writeHttpRefusal(socket, refusal);
    return refusal.status;
  };

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // The connection may fail while the session is checked; its error must not go unheard.
    socket.on('error', ignore);
    const context = contextOf(request);
    /** A refusal before the session's record exists, logged here; after, the record's end logs it. */
    const refuse = (error: unknown, outcome?: RequestOutcome) =>
      logUpgrade(request, context, { status: writeRefusal(socket, error, context), outcome });
    const headRefusal = checkRequestHead(request, { closing: draining });
    if (headRefusal) return refuse(headRefusal);
    const read = readUpgradeRequest(request);
    if (read.path !== REALTIME_PATH)
      return refuse(new GatewayError('invalid_url', { method: read.method, path: read.path }));
    if (!isWebSocketHandshake(request))
      return refuse(new GatewayError('bad_request', { detail: 'not a WebSocket opening handshake' }));

    let principal: Principal;
    try {
      principal = await authenticate(services.principals, {
        rawKey: read.rawKey,
        clientIp: context.clientIp,
      });
    } catch (error) {
      return refuse(error);
    }
    context.principal = principal;
    if (principal.user.language) context.language = principal.user.language;
    const observation = services.observer.requestStarted({
      requestId: context.requestId,
      endpoint: REALTIME_ENDPOINT,
      headers: request.headers,
      startedAt: context.startedAt,
    });
    let admission: SessionAdmission;
    try {
      admission = await admitSession(services, {
        principal,
        requestedModel: read.model,
        requestId: context.requestId,
        budgetWindows,
        observation,
      });
    } catch (error) {
      const outcome = refusedOutcome(context, principal, read, error);
      observation.finished(outcome);
      return refuse(error, outcome);
    }

    const opened = await openSession(services, {
      request,
      socket,
      head,
      context,
      upgrade: read,
      admission,
      observation,
      webSockets,
      acceptHeaders,
      budgetWindows,
      maxUpstreamFrameBytes: MAX_UPSTREAM_FRAME_BYTES,
      refuse: (error) => void writeRefusal(socket, error, context),
      refuseAsUpstream: (refusal) => writeHttpRefusal(socket, refusal),
      log: (status, outcome) => logUpgrade(request, context, { status, outcome }),
      onEnded: (ended) => {
        sessions.delete(ended);
        heartbeat.unwatch(ended.client);
        heartbeat.unwatch(ended.upstream);
        if (sessions.size > 0) return;
        for (const wake of closedWaiters) wake();
        closedWaiters = [];
      },
    });
    if (!opened) return;
    sessions.add(opened);
    heartbeat.watch(opened.client);
    heartbeat.watch(opened.upstream);
    // An upgrade that arrived as shutdown began is drained like the rest.
    if (draining) opened.session.drain();
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(request, socket, head).catch((error: unknown) => {
      services.logger.error({ err: error }, 'realtime upgrade failed');
      socket.destroy();
    });
  });

  return {
    get openSessions() {
      return sessions.size;
    },
    drain() {
      draining = true;
      for (const opened of sessions) opened.session.drain();
    },
    closed() {
      if (sessions.size === 0) return Promise.resolve();
      return new Promise((resolve) => closedWaiters.push(resolve));
    },
  };
}

function ignore(): void {}

/** A refusal as the client gets it from any endpoint: family A body, request id, the error's headers. */
function renderedRefusal(error: GatewayError, context: RequestContext): HttpRefusal {
  const rendered = renderError(error, context);
  return {
    status: rendered.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      [REQUEST_ID_HEADER]: context.requestId,
      ...rendered.headers,
    },
    body: JSON.stringify(rendered.body),
  };
}

/** How a session refused at its upgrade ended, for metrics and traces; nothing was reserved. */
function refusedOutcome(
  context: RequestContext,
  principal: Principal,
  read: UpgradeRequest,
  error: unknown,
): Parameters<RequestObservation['finished']>[0] {
  return {
    requestId: context.requestId,
    endpoint: REALTIME_ENDPOINT,
    model: read.model,
    requestedModel: read.model,
    channelId: null,
    userId: principal.user.id,
    keyId: principal.key.id,
    stream: true,
    statusCode: error instanceof GatewayError ? error.status : 500,
    charged: false,
    tokens: undefined,
    cost: 0,
    latencyMs: Math.round(performance.now() - context.startedAt),
    firstByteMs: null,
    error: error instanceof GatewayError ? error.message : String(error),
    describeReply: undefined,
  };
}
