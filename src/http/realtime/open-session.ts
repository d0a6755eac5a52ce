import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { exactTokens } from '../../billing/token-estimate.js';
import { REQUEST_ID_HEADER } from '../request-id.js';
import type { RequestContext } from '../request-context.js';
import { LossLog } from '../../ir/loss.js';
import { Cancellation } from '../../relay/cancellation.js';
import { routeRequest } from '../../relay/request-routing.js';
import { RequestAccount } from '../../relay/request-account.js';
import type { RequestObservation, RequestOutcome } from '../../relay/relay-observer.js';
import { SERVED_MODEL_HEADER } from '../../relay/relay-response.js';
import type { GatewayServices } from '../../services.js';
import type { BudgetWindowsRepository } from '../../store/budget-windows-repository.js';
import type { SessionAdmission } from './admit-session.js';
import { connectUpstream, type UpstreamConnection } from './connect-upstream.js';
import { RealtimeSession } from './realtime-session.js';
import { ResponseMeter, REALTIME_ENDPOINT } from './response-meter.js';
import { checkSpendingRoom } from './spending-room.js';
import type { UpgradeRequest } from './upgrade-request.js';
import type { HttpRefusal } from './write-http-refusal.js';

/** A session relayed, with its two sockets. */
export interface OpenedSession {
  session: RealtimeSession;
  client: WebSocket;
  upstream: WebSocket;
}

export interface OpenSessionRequest {
  request: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  context: RequestContext;
  upgrade: UpgradeRequest;
  admission: SessionAdmission;
  observation: RequestObservation;
  webSockets: WebSocketServer;
  /** Headers `webSockets` adds to the 101 answer of a request. */
  acceptHeaders: WeakMap<IncomingMessage, string[]>;
  budgetWindows: BudgetWindowsRepository;
  maxUpstreamFrameBytes: number;
  refuse(error: unknown): void;
  /** Passes an upstream's own refusal of the upgrade to the client. */
  refuseAsUpstream(refusal: HttpRefusal): void;
  /** The access log line of the upgrade, once its record is written: the status the client got. */
  log(status: number, outcome: RequestOutcome): void;
  onEnded(ended: OpenedSession): void;
}

/**
 * An admitted upgrade becomes a session: its usage record and concurrency slot (the session's
 * hold) kept from here to the end whatever way it ends; an upstream opened; the client's upgrade
 * accepted only then, with the request id and the served model in the 101 answer. Undefined when no
 * session opened (the client was refused, or left).
 */
export async function openSession(
  services: GatewayServices,
  opening: OpenSessionRequest,
): Promise<OpenedSession | undefined> {
  const { context, admission, observation, socket } = opening;
  const { plan, reservation } = admission;
  const principal = context.principal!;
  const first = plan.targets[0]!;
  /** Set once the client's upgrade is accepted: its access log line says 101. */
  let accepted = false;
  const account = new RequestAccount(
    services,
    {
      requestId: context.requestId,
      principal,
      model: first.model,
      requestedModel: plan.namedModel,
      endpoint: REALTIME_ENDPOINT,
      stream: true,
      price: first.price,
      groupRatio: plan.groupRatio,
      inputTokens: exactTokens(0),
      startedAt: context.startedAt,
      losses: new LossLog(),
      observation,
      onFinished: (outcome) => opening.log(accepted ? 101 : outcome.statusCode, outcome),
    },
    reservation,
  );
  const cancellation = new Cancellation();
  const clientLeft = () => cancellation.abort(new Error('the client closed the connection'));
  socket.once('close', clientLeft);
  const untrack = services.tracker.begin(cancellation);
  const notOpened = (statusCode: number, error: string) => {
    socket.off('close', clientLeft);
    account.finish({ statusCode, charged: false, error });
    untrack();
  };

  let connection: UpstreamConnection;
  try {
    const settings = services.settings.get();
    const routing = await routeRequest(services.routing, {
      request: { protocol: undefined, body: {}, headers: opening.request.headers, keyId: principal.key.id },
      plan,
      targets: plan.targets,
      settings,
    });
    const connected = await connectUpstream({
      targets: routing.targets,
      health: services.health,
      maxAttempts: settings.retry_times + 1,
      connectTimeoutSeconds: settings.connect_timeout_s,
      maxPayload: opening.maxUpstreamFrameBytes,
      forwardedHeaders: opening.upgrade.forwardedHeaders,
      cancellation,
      observation,
    });
    if (connected.kind === 'failed') {
      notOpened(connected.error.status, connected.error.message);
      return void opening.refuse(connected.error);
    }
    if (connected.kind === 'refused') {
      const { upstream } = connected;
      notOpened(upstream.status, upstream.summary);
      return void opening.refuseAsUpstream({
        status: upstream.status,
        headers: { ...upstream.headers, [REQUEST_ID_HEADER]: context.requestId },
        body: upstream.body,
      });
    }
    connection = connected.connection;
  } catch (error) {
    notOpened(500, String(error));
    return void opening.refuse(error);
  }

  const { target } = connection;
  account.channelId = connection.channel.id;
  account.servedBy(target.model, target.price);
  if (cancellation.aborted || socket.destroyed) {
    connection.socket.terminate();
    notOpened(499, 'the client closed the connection before the session opened');
    return undefined;
  }
  socket.off('close', clientLeft);
  opening.acceptHeaders.set(opening.request, [
    `${REQUEST_ID_HEADER}: ${context.requestId}`,
    `${SERVED_MODEL_HEADER}: ${target.model}`,
  ]);
  let client: WebSocket | undefined;
  opening.webSockets.handleUpgrade(opening.request, socket, opening.head, (accepted) => {
    client = accepted;
  });
  // `ws` completes a checked handshake at once, or destroys a socket that can no longer take it.
  if (!client) {
    connection.socket.terminate();
    notOpened(499, 'the client closed the connection before the session opened');
    return undefined;
  }

  accepted = true;
  account.markFirstByte();
  observation.streamOpened();
  const opened = startSession(services, { ...opening, client, connection, account, untrack });
  cancellation.once('abort', () => {
    const reason: unknown = cancellation.reason;
    opened.session.abort(reason instanceof Error ? reason.message : undefined);
  });
  return opened;
}

/** The relay of an opened session, and what its end settles. */
function startSession(
  services: GatewayServices,
  started: OpenSessionRequest & {
    client: WebSocket;
    connection: UpstreamConnection;
    account: RequestAccount;
    untrack: () => void;
  },
): OpenedSession {
  const { context, admission, connection, account } = started;
  const { plan, scopes } = admission;
  const { target } = connection;
  const principal = context.principal!;
  // Assigned below, before any event can reach the meter's callbacks.
  let session!: RealtimeSession;
  const meter = new ResponseMeter(
    services,
    {
      requestId: context.requestId,
      principal,
      model: target.model,
      requestedModel: plan.namedModel,
      price: target.price,
      groupRatio: plan.groupRatio,
      channelId: connection.channel.id,
      channelKeys: connection.channel.keys,
      scopes,
    },
    {
      onCharged: () => {
        const settings = services.settings.get();
        checkSpendingRoom(
          { repositories: services.repositories, budgetWindows: started.budgetWindows },
          {
            principal,
            scopes,
            model: target.model,
            need: meter.nextPreCharge(),
            timeZone: settings.budget_time_zone,
            nowMs: Date.now(),
          },
        ).then(
          (refusal) => refusal && session.cutOff(refusal),
          (error: unknown) =>
            services.logger.warn({ err: error, requestId: context.requestId }, 'realtime room check failed'),
        );
      },
      onRefused: (error) => session.cutOff(error),
    },
  );
  const opened: OpenedSession = { session: undefined!, client: started.client, upstream: connection.socket };
  session = new RealtimeSession({
    client: started.client,
    upstream: connection.socket,
    meter,
    requestId: context.requestId,
    language: context.language,
    models: {
      publicNames: new Set([plan.requestedModel, plan.namedModel, target.model]),
      served: target.model,
      upstream: connection.upstreamModel,
    },
    channelKeys: connection.channel.keys,
    onEnded: (error) => {
      account.finish({ statusCode: 200, charged: false, error });
      started.untrack();
      started.onEnded(opened);
    },
  });
  opened.session = session;
  return opened;
}
