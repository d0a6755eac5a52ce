import { setTimeout as sleep } from 'node:timers/promises';
import type { RawData, WebSocket } from 'ws';
import { DEFAULT_AUDIO_BYTES, DEFAULT_AUDIO_CHUNK_BYTES } from './fake-audio-bytes.js';
import type { FakeUsage, RecordedRequest, ReplyOverrides, RequestProblem } from './fake-upstream.js';
import type { RealtimeRefusal } from './openai-realtime-admission.js';
import { offeredProtocols } from './openai-realtime-admission.js';
import { readClientEvent, type RealtimeClientEvent } from './openai-realtime-client-events.js';
import {
  realtimeResponseDone,
  realtimeResponseEvents,
  type RealtimeResponsePlan,
  type RealtimeServerEvent,
} from './openai-realtime-response.js';
import { defaultRealtimeSession, updateRealtimeSession } from './openai-realtime-session.js';

/** How the fake answers one `response.create`. */
export interface FakeRealtimeStep extends Pick<
  ReplyOverrides,
  'text' | 'usage' | 'chunkDelayMs' | 'audioBytes' | 'audioChunkBytes'
> {
  /** Send the whole response but its `response.done` until `release()` or the client's `response.cancel`. */
  hold?: boolean;
}

export interface RealtimeClose {
  code: number;
  reason: string;
}

export interface RealtimeConnectionContext {
  socket: WebSocket;
  request: RecordedRequest;
  nextId: (prefix: string) => string;
  /** The scripted step of the next response (`{}` when none is queued). */
  nextStep: () => FakeRealtimeStep;
  defaults: { text: string; usage: FakeUsage };
}

interface ActiveResponse {
  plan: RealtimeResponsePlan;
  held: boolean;
  released: boolean;
  done: boolean;
}

/**
 * One WebSocket on the fake's `/v1/realtime`: what the client sent and what the fake answered, and
 * the controls a test holds over it. Client events follow the Realtime API
 * (https://platform.openai.com/docs/api-reference/realtime-client-events); a bad frame gets an
 * `error` event and the socket stays open. `conversation.item.truncate` and `.retrieve` are
 * recorded and not answered.
 */
export class FakeRealtimeConnection {
  /** The upgrade request: path, query (`model`), headers. */
  readonly request: RecordedRequest;
  /** The subprotocols the client offered (`realtime`, `openai-insecure-api-key.<key>`). */
  readonly protocols: string[];
  /** Client frames in order: parsed events, the text of a frame that is not JSON, a binary frame's bytes. */
  readonly events: unknown[] = [];
  /** Server events in order, as sent. */
  readonly sent: RealtimeServerEvent[] = [];
  readonly closed: Promise<RealtimeClose>;
  private readonly context: RealtimeConnectionContext;
  private session: Record<string, unknown> = {};
  private conversationId = '';
  private audioBufferBytes = 0;
  private lastItemId: string | null = null;
  private active: ActiveResponse | undefined;
  private readonly waiters: (() => boolean)[] = [];

  constructor(context: RealtimeConnectionContext) {
    this.context = context;
    this.request = context.request;
    this.protocols = offeredProtocols(context.request);
    this.closed = new Promise((resolve) =>
      context.socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    context.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
  }

  /** The subprotocol the fake chose: `realtime` when offered, else none (''). */
  get protocol(): string {
    return this.context.socket.protocol;
  }

  /** Resolves with the `count`-th client event of this type once it has arrived. */
  received(type: string, count = 1): Promise<RealtimeClientEvent> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.events.filter((event) => (event as { type?: unknown })?.type === type)[count - 1];
        if (found !== undefined) resolve(found as RealtimeClientEvent);
        return found !== undefined;
      };
      if (!check()) this.waiters.push(check);
    });
  }

  /** Sends any server event (an `event_id` is added when missing). */
  send(event: RealtimeServerEvent): void {
    const { type, event_id: eventId, ...rest } = event;
    const sent = { type, event_id: eventId ?? this.context.nextId('event_'), ...rest };
    this.sent.push(sent);
    if (this.context.socket.readyState === this.context.socket.OPEN)
      this.context.socket.send(JSON.stringify(sent));
  }

  close(code = 1000, reason = ''): void {
    this.context.socket.close(code, reason);
  }

  /** Sends the `response.done` of a held response (now, or as soon as the response reaches it). */
  release(): void {
    if (!this.active) return;
    this.active.released = true;
    if (this.active.held) this.finish('completed');
  }

  /** Opens the session: `session.created` with the GA defaults for the asked model. */
  open(): void {
    const model = this.request.query.get('model') ?? '';
    this.session = defaultRealtimeSession({ id: this.context.nextId('sess_'), model });
    this.conversationId = this.context.nextId('conv_');
    this.send({ type: 'session.created', session: this.session });
  }

  /** Refuses the session as the API does after the upgrade: one `error` event, then the close. */
  refuse(refusal: RealtimeRefusal): void {
    this.sendError({ message: refusal.message, code: refusal.code, param: null });
    this.close(refusal.closeCode, `invalid_request_error${refusal.code ? `.${refusal.code}` : ''}`);
  }

  private receive(data: RawData, isBinary: boolean): void {
    const bytes = frameBytes(data);
    if (isBinary) {
      this.record(bytes);
      return this.sendError({
        message: 'Expected a text WebSocket message; binary frames are not supported.',
        code: 'invalid_event',
      });
    }
    const text = bytes.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      this.record(text);
      return this.sendError({
        message: `Invalid event: failed to parse JSON value. ${(error as Error).message}`,
        code: 'invalid_json',
      });
    }
    this.record(parsed);
    const read = readClientEvent(parsed);
    const clientEventId = (parsed as { event_id?: unknown })?.event_id;
    if ('problem' in read) return this.sendError(read.problem, clientEventId);
    this.handle(read.event, clientEventId);
  }

  private handle(event: RealtimeClientEvent, clientEventId: unknown): void {
    switch (event.type) {
      case 'session.update':
        this.session = updateRealtimeSession(this.session, event.session as Record<string, unknown>);
        return this.send({ type: 'session.updated', session: this.session });
      case 'input_audio_buffer.append':
      case 'session.input_audio_buffer.append':
        this.audioBufferBytes += Buffer.from(String(event.audio), 'base64').length;
        return;
      case 'input_audio_buffer.commit':
        return this.commitAudio(clientEventId);
      case 'input_audio_buffer.clear':
        this.audioBufferBytes = 0;
        return this.send({ type: 'input_audio_buffer.cleared' });
      case 'conversation.item.create':
        return this.addItem(event.item as Record<string, unknown>, event.previous_item_id);
      case 'conversation.item.delete':
        return this.send({ type: 'conversation.item.deleted', item_id: event.item_id });
      case 'response.create':
        if (this.active)
          return this.sendError(
            {
              message: `Conversation already has an active response in progress: ${this.active.plan.id}. Wait until the response is finished before creating a new one.`,
              code: 'conversation_already_has_active_response',
            },
            clientEventId,
          );
        return void this.respond(event.response as Record<string, unknown> | undefined);
      case 'response.cancel':
        if (this.active) return this.finish('cancelled');
        return this.sendError(
          { message: 'Cancellation failed: no active response found', code: 'response_cancel_not_active' },
          clientEventId,
        );
      case 'session.close':
        return this.close(1000, '');
      case 'conversation.item.truncate':
      case 'conversation.item.retrieve':
        return;
      default: {
        const unexpected: never = event.type;
        throw new Error(`Unhandled realtime event ${String(unexpected)}`);
      }
    }
  }

  /** A committed buffer of at least 100 ms becomes a user item. */
  private commitAudio(clientEventId: unknown): void {
    const input = (this.session.audio as { input?: { format?: { type?: string; rate?: number } } })?.input;
    const format = input?.format;
    const bytesPerMs = format?.type === 'audio/pcm' ? ((format.rate ?? 24000) * 2) / 1000 : 8;
    const milliseconds = this.audioBufferBytes / bytesPerMs;
    if (milliseconds < 100)
      return this.sendError(
        {
          message: `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${milliseconds.toFixed(2)}ms of audio.`,
          code: 'input_audio_buffer_commit_empty',
        },
        clientEventId,
      );
    this.audioBufferBytes = 0;
    const itemId = this.context.nextId('item_');
    this.send({ type: 'input_audio_buffer.committed', previous_item_id: this.lastItemId, item_id: itemId });
    const item = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_audio', transcript: null }],
      id: itemId,
    };
    this.addItem(item, undefined);
  }

  private addItem(item: Record<string, unknown>, previousItemId: unknown): void {
    const id = typeof item.id === 'string' ? item.id : this.context.nextId('item_');
    const added = { ...item, id, object: 'realtime.item', status: 'completed' };
    const previous = typeof previousItemId === 'string' ? previousItemId : this.lastItemId;
    this.lastItemId = id;
    this.send({ type: 'conversation.item.added', previous_item_id: previous, item: added });
    this.send({ type: 'conversation.item.done', previous_item_id: previous, item: added });
  }

  private async respond(options: Record<string, unknown> | undefined): Promise<void> {
    const step = this.context.nextStep();
    const modalities = options?.output_modalities ?? this.session.output_modalities;
    const output = (this.session.audio as { output?: { voice?: unknown } } | undefined)?.output;
    const plan: RealtimeResponsePlan = {
      id: this.context.nextId('resp_'),
      itemId: this.context.nextId('item_'),
      previousItemId: this.lastItemId,
      conversationId: this.conversationId,
      text: step.text ?? this.context.defaults.text,
      audio: Array.isArray(modalities) && modalities.includes('audio'),
      voice: typeof output?.voice === 'string' ? output.voice : 'alloy',
      usage: { ...this.context.defaults.usage, ...step.usage },
      audioBytes: step.audioBytes ?? DEFAULT_AUDIO_BYTES,
      audioChunkBytes: step.audioChunkBytes ?? DEFAULT_AUDIO_CHUNK_BYTES,
    };
    const active: ActiveResponse = { plan, held: false, released: false, done: false };
    this.active = active;
    this.lastItemId = plan.itemId;
    for (const [index, event] of realtimeResponseEvents(plan).entries()) {
      if (index > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
      if (active.done || this.context.socket.readyState !== this.context.socket.OPEN) return;
      this.send(event);
    }
    active.held = step.hold === true && !active.released;
    if (!active.held) this.finish('completed');
  }

  /** `response.done` for the active response, then the rate limits, as the API sends them after it. */
  private finish(status: 'completed' | 'cancelled'): void {
    const active = this.active;
    if (!active || active.done) return;
    active.done = true;
    this.active = undefined;
    this.send(realtimeResponseDone(active.plan, status));
    const total = active.plan.usage.inputTokens + active.plan.usage.outputTokens;
    this.send({
      type: 'rate_limits.updated',
      rate_limits: [
        { name: 'requests', limit: 5000, remaining: 4999, reset_seconds: 0.012 },
        { name: 'tokens', limit: 15_000_000, remaining: 15_000_000 - total, reset_seconds: 0.001 },
      ],
    });
  }

  private sendError(problem: RequestProblem, clientEventId?: unknown): void {
    this.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: problem.code ?? null,
        message: problem.message,
        param: problem.param ?? null,
        event_id: typeof clientEventId === 'string' ? clientEventId : null,
      },
    });
  }

  private record(frame: unknown): void {
    this.events.push(frame);
    for (const check of this.waiters.splice(0)) if (!check()) this.waiters.push(check);
  }
}

function frameBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
