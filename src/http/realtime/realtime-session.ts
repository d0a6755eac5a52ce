import { WebSocket, type RawData } from 'ws';
import type { Language } from '../../errors/catalogue.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { isJsonObject } from '../../protocols/wire-json.js';
import { redactKeys } from '../../providers/redact-keys.js';
import {
  CLOSE_GOING_AWAY,
  CLOSE_INTERNAL_ERROR,
  CLOSE_POLICY_VIOLATION,
  forwardableClose,
} from './close-codes.js';
import { FlowControlledSender, PausableSocket, PauseReason } from './flow-control.js';
import { realtimeErrorEvent } from './realtime-error-event.js';
import type { ResponseMeter } from './response-meter.js';
import { WatchedEvents, type WatchedEvent } from './watched-events.js';

/** The client events the gateway reads: the one that starts a response, and the one that may name the model. */
const CLIENT_EVENTS = new WatchedEvents(['response.create', 'session.update'] as const);
/** The server events it reads: a response's start and end, and errors that refuse a `response.create`. */
const SERVER_EVENTS = new WatchedEvents(['response.created', 'response.done', 'error'] as const);

/** How long a response still running when its client leaves is waited for, to be charged on its usage. */
const CANCEL_WAIT_MS = 5_000;
/** A client told to go away when the gateway stops has this long to answer the close. */
const GOING_AWAY_MS = 1_000;
const SHUTTING_DOWN = 'the gateway is shutting down';

/** Who ended a session; responses left without their `response.done` are recorded with it. */
type EndedBy = 'client' | 'upstream' | 'gateway';
const UNFINISHED_STATUS: Record<EndedBy, number> = { client: 499, upstream: 502, gateway: 503 };

export interface SessionOptions {
  client: WebSocket;
  /** Open and paused: the session resumes it once it listens. */
  upstream: WebSocket;
  meter: ResponseMeter;
  requestId: string;
  language: Language;
  models: {
    /** What the client may call the session's model in `session.update`: the names it opened it with. */
    publicNames: ReadonlySet<string>;
    /** The public model billed. */
    served: string;
    /** The channel's name for it, which the upstream must hear. */
    upstream: string;
  };
  /** The channel's keys: an upstream `error` event echoing one reaches the client without it. */
  channelKeys: readonly string[];
  /** Called once, when the session is over (its client gone): the record's error, null for a normal close. */
  onEnded(error: string | null): void;
}

/**
 * One realtime session relayed between its client and the upstream (admin-api section 14): every
 * frame passes both ways as it came (text as text, binary as binary, with backpressure), except a
 * `session.update` naming the model, which the upstream hears by its own name. The few events that
 * move money are read on the way (`ResponseMeter`). Close codes and reasons pass both ways; a client
 * that leaves while a response runs has that response cancelled and waited for, so it is charged
 * for exactly what the upstream produced.
 */
export class RealtimeSession {
  private readonly client: PausableSocket;
  private readonly upstream: PausableSocket;
  private readonly toUpstream: FlowControlledSender;
  private readonly toClient: FlowControlledSender;
  /** Client frames that arrived while a `response.create` waited for its reservation, in order. */
  private clientBacklog: [Buffer, boolean][] | undefined;
  private clientClosed = false;
  private upstreamClosed = false;
  /** Set once the session's end is decided: the record's error, null for a normal close. */
  private ending: string | null | undefined;
  private endedBy: EndedBy | undefined;
  private draining = false;
  private finished = false;

  constructor(private readonly options: SessionOptions) {
    this.client = new PausableSocket(options.client);
    this.upstream = new PausableSocket(options.upstream);
    this.toUpstream = new FlowControlledSender(options.upstream, this.client);
    this.toClient = new FlowControlledSender(options.client, this.upstream);
    const { client, upstream } = options;
    client.on('message', (data, isBinary) => this.fromClient(frameBytes(data), isBinary));
    upstream.on('message', (data, isBinary) => this.fromUpstream(frameBytes(data), isBinary));
    client.on('close', (code, reason) => this.clientClosedWith(code, reason));
    upstream.on('close', (code, reason) => this.upstreamClosedWith(code, reason));
    // Each socket's `close` follows its error.
    client.on('error', ignore);
    upstream.on('error', ignore);
    if (upstream.readyState === WebSocket.CLOSED) this.upstreamClosedWith(1006, Buffer.alloc(0));
    else upstream.resume();
  }

  /**
   * Ends a session that has no room left to spend (admin-api section 14): a response's reservation
   * was refused, or a charge used up the balance, the key's quota or a budget. The client hears an
   * `error` event with code `insufficient_quota` (naming its `response.create`, if that was it),
   * then a close with 1008.
   */
  cutOff(refusal: unknown, clientEventId?: string): void {
    if (this.ending !== undefined) return;
    if (!(refusal instanceof GatewayError)) {
      // The gateway could not reserve (its store failing): a session it cannot meter stops.
      const error = new GatewayError('internal_error', { detail: String(refusal) });
      this.sendToClient(
        realtimeErrorEvent({ code: 'internal_error', message: this.messageOf(error), clientEventId }),
      );
      return this.end(
        'gateway',
        { code: CLOSE_INTERNAL_ERROR, reason: 'internal_error' },
        `internal error: ${String(refusal)}`,
      );
    }
    this.sendToClient(
      realtimeErrorEvent({ code: 'insufficient_quota', message: this.messageOf(refusal), clientEventId }),
    );
    this.end(
      'gateway',
      { code: CLOSE_POLICY_VIOLATION, reason: 'insufficient_quota' },
      `insufficient_quota: ${refusal.message}`,
    );
  }

  /** Shutdown: no new response starts; the session closes (1001) once no response is running. */
  drain(): void {
    this.draining = true;
    void this.options.meter.whenIdle().then(() => {
      if (this.ending === undefined)
        this.end('gateway', { code: CLOSE_GOING_AWAY, reason: SHUTTING_DOWN }, null);
    });
  }

  /**
   * The grace period is over (or this process lost its hold lease): the client is told to go away
   * now; a response still running is cancelled and waited for briefly, as when a client leaves.
   */
  abort(reason: string = SHUTTING_DOWN): void {
    if (this.clientClosed) return;
    this.ending ??= null;
    this.endedBy ??= 'gateway';
    // A close reason holds at most 123 bytes (RFC 6455 section 5.5).
    this.closeClient(CLOSE_GOING_AWAY, Buffer.from(reason).subarray(0, 123).toString());
    setTimeout(() => this.options.client.terminate(), GOING_AWAY_MS).unref();
  }

  private fromClient(data: Buffer, isBinary: boolean): void {
    if (this.clientBacklog) this.clientBacklog.push([data, isBinary]);
    else this.forwardFromClient(data, isBinary);
  }

  private forwardFromClient(data: Buffer, isBinary: boolean): void {
    if (this.ending !== undefined) return;
    const watched = isBinary ? undefined : CLIENT_EVENTS.read(data);
    if (!watched) return this.toUpstream.send(data, isBinary);
    if (watched.type === 'session.update') return this.forwardSessionUpdate(data, watched.event);
    this.forwardResponseCreate(data, watched.event);
  }

  /**
   * A `response.create` goes upstream only once its reservation is made (admin-api section 14);
   * frames after it wait behind it, and without room it is answered `insufficient_quota` instead.
   * While the gateway stops, none is started: the session is about to close (1001).
   */
  private forwardResponseCreate(data: Buffer, event: Record<string, unknown>): void {
    if (this.draining) return;
    const clientEventId = typeof event.event_id === 'string' ? event.event_id : undefined;
    this.clientBacklog = [];
    this.client.hold(PauseReason.Reservation);
    this.options.meter
      .reserveForClient({
        clientEventId,
        response: isJsonObject(event.response) ? event.response : undefined,
      })
      .then(
        (asked) => {
          if (this.ending !== undefined || this.clientClosed) {
            asked.withdrawn({ statusCode: 499, error: 'the session closed before the response was sent' });
            return;
          }
          asked.forwarded();
          this.toUpstream.send(data, false);
          this.releaseBacklog();
        },
        (refusal: unknown) => {
          this.clientBacklog = undefined;
          this.cutOff(refusal, clientEventId);
        },
      );
  }

  private releaseBacklog(): void {
    const backlog = this.clientBacklog ?? [];
    this.clientBacklog = undefined;
    this.client.release(PauseReason.Reservation);
    for (let index = 0; index < backlog.length; index += 1) {
      const [data, isBinary] = backlog[index]!;
      this.forwardFromClient(data, isBinary);
      // Another `response.create` waits for its reservation (the call above may have started one):
      // the rest wait behind it.
      const waiting = this.clientBacklog as [Buffer, boolean][] | undefined;
      if (waiting) return void waiting.push(...backlog.slice(index + 1));
    }
  }

  /**
   * The model a session runs is the one it opened with, which is what it is billed as: a
   * `session.update` naming it by its public name reaches the upstream with the channel's name; one
   * naming another model is refused with an `error` event and not forwarded.
   */
  private forwardSessionUpdate(data: Buffer, event: Record<string, unknown>): void {
    const { session } = event;
    if (!isJsonObject(session)) return this.toUpstream.send(data, false);
    this.options.meter.configure(session);
    const { model } = session;
    const { models } = this.options;
    if (model === undefined || model === models.upstream) return this.toUpstream.send(data, false);
    if (typeof model === 'string' && models.publicNames.has(model)) {
      const patched = { ...event, session: { ...session, model: models.upstream } };
      return this.toUpstream.send(JSON.stringify(patched), false);
    }
    const error = new GatewayError('realtime_model_fixed', { model: models.served });
    this.sendToClient(
      realtimeErrorEvent({
        code: error.code,
        message: this.messageOf(error),
        param: 'session.model',
        clientEventId: typeof event.event_id === 'string' ? event.event_id : undefined,
      }),
    );
  }

  private fromUpstream(data: Buffer, isBinary: boolean): void {
    if (this.finished) return;
    const watched = isBinary ? undefined : SERVER_EVENTS.read(data);
    if (!this.clientClosed)
      this.toClient.send(watched?.type === 'error' ? this.redacted(data) : data, isBinary);
    if (watched) this.meterServerEvent(watched);
  }

  /**
   * An upstream error may quote the credential it was sent (`Incorrect API key provided: ...`), as
   * HTTP error bodies may: the client gets it without the channel's keys (every other frame as it is).
   */
  private redacted(data: Buffer): Buffer | string {
    const text = data.toString('utf8');
    const redacted = redactKeys(text, this.options.channelKeys);
    return redacted === text ? data : redacted;
  }

  private meterServerEvent(watched: WatchedEvent<'response.created' | 'response.done' | 'error'>): void {
    const { meter } = this.options;
    const { event } = watched;
    switch (watched.type) {
      case 'response.created': {
        const { response } = event;
        if (isJsonObject(response) && typeof response.id === 'string') meter.created(response.id);
        return;
      }
      case 'response.done':
        if (isJsonObject(event.response)) meter.done(event.response);
        return;
      case 'error':
        if (isJsonObject(event.error)) meter.refused(event.error);
        return;
      default: {
        const unknown: never = watched.type;
        return unknown;
      }
    }
  }

  /**
   * The client is gone, which ends the session: the upstream is closed with the client's code, at
   * once when no response runs, else once the running ones were cancelled and their
   * `response.done` arrived (or `CANCEL_WAIT_MS` passed), so they are charged on their usage.
   */
  private clientClosedWith(code: number, reason: Buffer): void {
    this.clientClosed = true;
    this.endedBy ??= 'client';
    if (this.ending === undefined) this.ending = closeError('client', code, reason);
    const forwarded = forwardableClose(code, reason);
    const closeUpstream = () => {
      this.closeUpstream(forwarded.code, forwarded.reason);
      this.finish();
    };
    const { meter } = this.options;
    if (this.upstreamClosed || meter.inProgress === 0) return closeUpstream();
    this.cancelResponses();
    const timer = setTimeout(closeUpstream, CANCEL_WAIT_MS);
    timer.unref();
    void meter.whenIdle().then(() => {
      clearTimeout(timer);
      closeUpstream();
    });
  }

  /** The upstream is gone: the client hears its close code, and the session ends with the client's close. */
  private upstreamClosedWith(code: number, reason: Buffer): void {
    this.upstreamClosed = true;
    this.endedBy ??= 'upstream';
    if (this.ending === undefined) this.ending = closeError('upstream', code, reason);
    if (this.clientClosed) return this.finish();
    const forwarded = forwardableClose(code, reason);
    this.closeClient(forwarded.code, forwarded.reason);
  }

  /**
   * The client is gone and nothing is left to charge: responses without their `response.done` are
   * released, and the session ends (its slot is free at once; the upstream's close completes on its own).
   */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.options.meter.endAll({
      statusCode: UNFINISHED_STATUS[this.endedBy ?? 'gateway'],
      error: 'the session closed before the response was done',
    });
    this.options.onEnded(this.ending ?? null);
  }

  /** The gateway ends the session itself: the client hears `close`, the upstream a normal close. */
  private end(by: EndedBy, close: { code: number; reason: string }, error: string | null): void {
    if (this.ending !== undefined) return;
    this.ending = error;
    this.endedBy = by;
    this.closeClient(close.code, close.reason);
    this.closeUpstream(1000, close.reason);
  }

  private cancelResponses(): void {
    const ids = new Set(this.options.meter.runningIds());
    for (const id of ids)
      this.sendUpstream(JSON.stringify(id === undefined ? CANCEL : { ...CANCEL, response_id: id }));
  }

  private sendToClient(text: string): void {
    if (!this.clientClosed) this.toClient.send(text, false);
  }

  private sendUpstream(text: string): void {
    if (!this.upstreamClosed) this.toUpstream.send(text, false);
  }

  private closeClient(code: number | undefined, reason: string): void {
    this.clientBacklog = undefined;
    this.client.releaseAll();
    closeSocket(this.options.client, code, reason);
  }

  private closeUpstream(code: number | undefined, reason: string): void {
    this.upstream.releaseAll();
    closeSocket(this.options.upstream, code, reason);
  }

  /** A gateway error as the session's client reads it: in its language, with the request id. */
  private messageOf(error: GatewayError): string {
    return `${error.localizedMessage(this.options.language)} (request id: ${this.options.requestId})`;
  }
}

const CANCEL = { type: 'response.cancel' } as const;

function ignore(): void {}

/** `ws` hands a text or binary message over as one Buffer (its default `binaryType`). */
function frameBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

function closeSocket(socket: WebSocket, code: number | undefined, reason: string): void {
  if (socket.readyState !== WebSocket.OPEN && socket.readyState !== WebSocket.CONNECTING) return;
  if (code === undefined) socket.close();
  else socket.close(code, reason);
}

/** A close by the peer with a normal code (RFC 6455 section 7.4.1) is no error of the session's. */
function closeError(side: 'client' | 'upstream', code: number, reason: Buffer): string | null {
  if (code === 1000 || code === 1001 || code === 1005) return null;
  const text = reason.toString();
  return `the ${side} closed the session with ${code}${text ? ` (${text})` : ''}`;
}
