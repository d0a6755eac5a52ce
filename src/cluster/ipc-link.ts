import type { JsonObject } from '../protocols/wire-json.js';
import {
  readCall,
  readEnvelope,
  readNotice,
  readReply,
  type CallName,
  type Calls,
  type Envelope,
  type NoticeName,
  type Notices,
} from './cluster-messages.js';

/** One end of an IPC channel: a worker's `process`, or the primary's handle on one worker. */
export interface IpcPort {
  /** Sends one message; `onError` hears when it could not be (the channel is closed). */
  send(message: Envelope, onError: (error: Error) => void): void;
  /** Adds a listener for every message received; returns how to remove it. */
  listen(listener: (message: unknown) => void): () => void;
}

export type CallHandler<Name extends CallName> = (
  request: Calls[Name]['request'],
) => Promise<Calls[Name]['reply']>;
export type NoticeListener<Name extends NoticeName> = (notice: Notices[Name]) => void;

interface Pending {
  settle(body: unknown, error: string | undefined): void;
  fail(error: Error): void;
}

/**
 * Calls with replies and one-way notices over one IPC channel, the same on both ends. A call that
 * gets no reply in time, or whose channel closes, fails: callers decide what to do without an answer.
 */
export class IpcLink {
  private nextId = 1;
  private closed = false;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<CallName, (request: unknown) => Promise<unknown>>();
  private readonly listeners = new Map<NoticeName, ((notice: unknown) => void)[]>();
  private readonly stopListening: () => void;

  constructor(
    private readonly port: IpcPort,
    private readonly onError: (error: unknown, context: string) => void = () => undefined,
  ) {
    this.stopListening = port.listen((message) => this.receive(message));
  }

  call<Name extends CallName>(
    op: Name,
    request: Calls[Name]['request'],
    timeoutMs: number,
  ): Promise<Calls[Name]['reply']> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`cannot call ${op}: the IPC link is closed`));
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${op} within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        settle(body, error) {
          done();
          const reply = error === undefined ? readReply[op](body) : undefined;
          if (reply === undefined) reject(new Error(error ?? `malformed answer to ${op}`));
          else resolve(reply as Calls[Name]['reply']);
        },
        fail(error) {
          done();
          reject(error);
        },
      });
      this.port.send({ gateway: 'call', id, op, body: request as JsonObject }, (error) =>
        this.pending.get(id)?.fail(error),
      );
    });
  }

  notify<Name extends NoticeName>(op: Name, notice: Notices[Name]): void {
    if (this.closed) return;
    this.port.send({ gateway: 'notice', op, body: notice as unknown as JsonObject }, (error) =>
      this.onError(error, `notice ${op}`),
    );
  }

  /** Answers the other end's calls of one operation (one handler each). */
  handle<Name extends CallName>(op: Name, handler: CallHandler<Name>): void {
    this.handlers.set(op, handler as (request: unknown) => Promise<unknown>);
  }

  onNotice<Name extends NoticeName>(op: Name, listener: NoticeListener<Name>): void {
    const list = this.listeners.get(op) ?? [];
    list.push(listener as (notice: unknown) => void);
    this.listeners.set(op, list);
  }

  /** Stops listening; calls still waiting fail at once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    for (const pending of [...this.pending.values()]) pending.fail(new Error('the IPC link closed'));
  }

  private receive(message: unknown): void {
    const envelope = readEnvelope(message);
    if (!envelope || this.closed) return;
    switch (envelope.gateway) {
      case 'reply':
        this.pending.get(envelope.id)?.settle(envelope.body, envelope.error);
        return;
      case 'call':
        this.answer(envelope.id, envelope.op, envelope.body);
        return;
      case 'notice':
        this.deliver(envelope.op, envelope.body);
        return;
      default: {
        const unknown: never = envelope;
        return unknown;
      }
    }
  }

  private answer(id: number, op: CallName, body: JsonObject): void {
    const handler = this.handlers.get(op);
    const request = (readCall[op] as (body: JsonObject) => unknown)(body);
    const reply = (message: Envelope) =>
      this.port.send(message, (error) => this.onError(error, `reply ${op}`));
    if (!handler || request === undefined) {
      reply({
        gateway: 'reply',
        id,
        body: null,
        error: handler ? `malformed ${op}` : `no handler for ${op}`,
      });
      return;
    }
    handler(request).then(
      (result) => reply({ gateway: 'reply', id, body: result }),
      (error: unknown) => reply({ gateway: 'reply', id, body: null, error: String(error) }),
    );
  }

  private deliver(op: NoticeName, body: JsonObject): void {
    const notice = (readNotice[op] as (body: JsonObject) => unknown)(body);
    if (notice === undefined) return;
    for (const listener of this.listeners.get(op) ?? []) {
      try {
        listener(notice);
      } catch (error) {
        this.onError(error, `notice ${op}`);
      }
    }
  }
}
