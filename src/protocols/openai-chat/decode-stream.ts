import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import { convertOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { isJsonObject, asFiniteNumber, asString, parseJson, type JsonObject } from '../wire-json.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId, toolCallId } from './openai-chat-ids.js';

type OpenBlock =
  { kind: 'text' | 'reasoning'; index: number } | { kind: 'tool-call'; index: number; call: ToolCallState };

/** One streamed tool call: id and name come in its first piece, arguments in many. */
interface ToolCallState {
  wireIndex: number;
  id: string | undefined;
  name: string | undefined;
  /** Arguments that came before the name, sent once the call can start. */
  buffered: string;
  status: 'pending' | 'open' | 'closed';
}

/** Index of the legacy `delta.function_call`, apart from every `tool_calls` index. */
const LEGACY_FUNCTION_CALL = -1;

/**
 * Chat completion chunks -> canonical events
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming). One block is open at
 * a time: text, reasoning (`reasoning_content` / `reasoning`) or a tool call, closed when another
 * begins or `finish_reason` arrives. `finish` waits for the usage-only chunk (`choices: []`) or
 * `[DONE]`, so that it carries the usage; `end()` finishes a stream that stopped short. A chunk
 * that is not a JSON object breaks the stream; `{"error": {...}}` ends it with an `error`.
 */
export class OpenAIChatStreamDecoder implements StreamDecoder {
  private phase: 'streaming' | 'finished' | 'failed' = 'streaming';
  private started = false;
  private responseId = '';
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private readonly calls = new Map<number, ToolCallState>();
  private finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private readonly noted = new Set<string>();
  private brokenBy: string | undefined;

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.phase === 'failed') return [];
    if (event.data.trim() === '[DONE]') return this.phase === 'streaming' ? this.finish() : [];
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isJsonObject(parsed.value)) {
      this.phase = 'failed';
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    const chunk = parsed.value;
    if (this.phase === 'finished') return this.trailingUsage(chunk);
    if (chunk.error !== undefined && chunk.error !== null) return this.fail(chunk.error);

    const out: StreamEvent[] = [];
    this.start(chunk, event.data, out);
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    choices.forEach((choice: unknown) => {
      if (!isJsonObject(choice)) return;
      if (choice.index !== undefined && choice.index !== 0)
        return this.noteOnce('choices', 'choices', 'only the first choice is kept');
      this.readChoice(choice, out);
    });
    const usage = convertOpenAIChatUsage(chunk.usage);
    if (usage) this.usage = usage;
    if (usage && choices.length === 0 && this.finishReason) out.push(...this.finish());
    return out;
  }

  end(): StreamEvent[] {
    return this.phase === 'streaming' ? this.finish() : [];
  }

  broken(): string | undefined {
    return this.brokenBy;
  }

  private start(chunk: JsonObject, data: string, out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    this.responseId = asString(chunk.id) || chatCompletionId(undefined, data);
    out.push({
      type: 'response-start',
      id: this.responseId,
      model: asString(chunk.model) ?? '',
      created: asFiniteNumber(chunk.created) ?? Math.floor(Date.now() / 1000),
    });
  }

  private readChoice(choice: JsonObject, out: StreamEvent[]): void {
    const delta = isJsonObject(choice.delta) ? choice.delta : {};
    const reasoning = asString(delta.reasoning_content) ?? asString(delta.reasoning);
    if (reasoning) this.appendText('reasoning', reasoning, out);
    if (typeof delta.content === 'string' && delta.content !== '')
      this.appendText('text', delta.content, out);
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.noteOnce('refusal', 'choices[0].delta.refusal', 'a refusal streams as plain text', 'coerced');
      this.appendText('text', delta.refusal, out);
    }
    if (Array.isArray(delta.tool_calls))
      delta.tool_calls.forEach((call: unknown, position) => {
        if (isJsonObject(call))
          this.readToolCall(typeof call.index === 'number' ? call.index : position, call, out);
      });
    if (isJsonObject(delta.function_call))
      this.readToolCall(LEGACY_FUNCTION_CALL, { function: delta.function_call }, out);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      this.closeAll(out);
      this.finishReason = mapOpenAIChatFinishReason(choice.finish_reason);
    }
  }

  private appendText(kind: 'text' | 'reasoning', text: string, out: StreamEvent[]): void {
    if (this.open?.kind !== kind) {
      this.closeOpen(out);
      const index = this.nextIndex++;
      this.open = { kind, index };
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index });
    }
    const { index } = this.open;
    out.push(
      kind === 'text' ? { type: 'text-delta', index, text } : { type: 'reasoning-delta', index, text },
    );
  }

  private readToolCall(wireIndex: number, call: JsonObject, out: StreamEvent[]): void {
    const fn = isJsonObject(call.function) ? call.function : {};
    const id = asString(call.id) || undefined;
    let state = this.calls.get(wireIndex);
    // Some servers number every call 0; a new id under a used index is a new call.
    if (!state || (id !== undefined && state.id !== undefined && id !== state.id)) {
      if (state?.status === 'open') this.closeOpen(out);
      state = { wireIndex, id, name: undefined, buffered: '', status: 'pending' };
      this.calls.set(wireIndex, state);
    }
    if (state.status === 'closed') {
      this.noteOnce(
        `late-${wireIndex}`,
        `tool_calls[${wireIndex}]`,
        'arguments after the call ended were dropped',
      );
      return;
    }
    state.id ??= id;
    const name = asString(fn.name);
    if (name) state.name ??= name;
    const piece = asString(fn.arguments) ?? '';
    if (state.status === 'pending') {
      state.buffered += piece;
      if (state.name !== undefined) this.openToolCall(state, out);
      return;
    }
    if (piece !== '' && this.open?.kind === 'tool-call')
      out.push({ type: 'tool-call-delta', index: this.open.index, argumentsDelta: piece });
  }

  private openToolCall(state: ToolCallState, out: StreamEvent[]): void {
    this.closeOpen(out);
    const index = this.nextIndex++;
    state.status = 'open';
    this.open = { kind: 'tool-call', index, call: state };
    const id = state.id ?? toolCallId(`${this.responseId}:${state.wireIndex}`);
    out.push({ type: 'tool-call-start', index, id, name: state.name ?? '' });
    if (state.buffered !== '') out.push({ type: 'tool-call-delta', index, argumentsDelta: state.buffered });
    state.buffered = '';
  }

  private closeOpen(out: StreamEvent[]): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    switch (open.kind) {
      case 'text':
        out.push({ type: 'text-end', index: open.index });
        return;
      case 'reasoning':
        out.push({ type: 'reasoning-end', index: open.index });
        return;
      case 'tool-call':
        open.call.status = 'closed';
        out.push({ type: 'tool-call-end', index: open.index });
        return;
      default: {
        const unreachable: never = open;
        return unreachable;
      }
    }
  }

  /** Closes the open block, and starts and closes calls whose name never came. */
  private closeAll(out: StreamEvent[]): void {
    this.closeOpen(out);
    for (const state of this.calls.values()) {
      if (state.status !== 'pending') continue;
      this.losses.coerced(
        `tool_calls[${state.wireIndex}].function.name`,
        'the upstream never named this tool call',
      );
      this.openToolCall(state, out);
      this.closeOpen(out);
    }
  }

  private finish(): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.start({}, `${Date.now()}`, out);
    this.closeAll(out);
    this.phase = 'finished';
    const finishReason = this.finishReason ?? { unified: 'other', raw: undefined };
    out.push({ type: 'finish', finishReason, ...(this.usage && { usage: this.usage }) });
    return out;
  }

  private trailingUsage(chunk: JsonObject): StreamEvent[] {
    const usage = convertOpenAIChatUsage(chunk.usage);
    return usage ? [{ type: 'usage', usage }] : [];
  }

  /** `data: {"error": {...}}` mid-stream (https://platform.openai.com/docs/guides/error-codes). */
  private fail(error: unknown): StreamEvent[] {
    this.phase = 'failed';
    const record = isJsonObject(error) ? error : {};
    const message = asString(record.message) ?? (typeof error === 'string' ? error : JSON.stringify(error));
    const code = record.code ?? record.type;
    const event: StreamEvent = { type: 'error', message };
    if (typeof code === 'string' || typeof code === 'number') event.code = String(code);
    return [event];
  }

  private noteOnce(key: string, path: string, reason: string, kind: 'dropped' | 'coerced' = 'dropped'): void {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.losses[kind](path, reason);
  }
}
