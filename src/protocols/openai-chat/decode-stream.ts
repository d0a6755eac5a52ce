import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamError, StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import { convertOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { asString, isJsonObject, parseJson } from '../wire-json.js';
import {
  openAIChatChunkSchema,
  type OpenAIChatWireChunk,
  type OpenAIChatWireChunkChoice,
  type OpenAIChatWireToolCall,
} from './wire-schemas.js';
import { decodeGeneratedImages } from './decode-generated-images.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId, toolCallId } from './openai-chat-ids.js';
import { OPENAI_OBFUSCATION, RepeatedTextEvent } from '../repeated-text-event.js';

/** The open text or reasoning block; tool calls are open apart from it, each on its own. */
interface TextBlock {
  kind: 'text' | 'reasoning';
  index: number;
}

/** One streamed tool call: id and name come in its first piece, arguments in many. */
interface ToolCallState {
  wireIndex: number;
  id: string | undefined;
  name: string | undefined;
  /** Arguments that came before the name, sent once the call can start. */
  buffered: string;
  status: 'pending' | 'open' | 'closed';
  /** Canonical block index, once open. */
  index: number;
}

/** Index of the legacy `delta.function_call`, apart from every `tool_calls` index. */
const LEGACY_FUNCTION_CALL = -1;

/**
 * Chat completion chunks -> canonical events
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming). Text and reasoning
 * (`reasoning_content` / `reasoning`) are one block at a time. Tool calls are assembled per
 * `index`: parallel calls may stream their argument pieces interleaved, so each call is a block of
 * its own, open from its first named piece until text follows or `finish_reason` arrives. An image
 * in OpenRouter's `delta.images` arrives whole: a `file` event, after the open blocks end. `finish`
 * waits for the usage-only chunk (`choices: []`) or `[DONE]`, so that it carries the usage;
 * `end()` finishes a stream that stopped short. A chunk that is not a JSON object breaks the
 * stream; `{"error": {...}}` ends it with an `error`. A chunk that repeats the last plain content,
 * reasoning or tool-call arguments delta but for its piece (and its `obfuscation` padding) is read
 * by that piece alone (`RepeatedTextEvent`), without the chunk's parse and schema check.
 */
export class OpenAIChatStreamDecoder implements StreamDecoder {
  private phase: 'streaming' | 'finished' | 'failed' = 'streaming';
  private started = false;
  private responseId = '';
  private nextIndex = 0;
  private text: TextBlock | undefined;
  /** The latest call under each wire index, in the order the indexes first came. */
  private readonly calls = new Map<number, ToolCallState>();
  private finishReason: FinishReason | undefined;
  /** The model refused (`delta.refusal`): a `stop` then means the content filter. */
  private refused = false;
  private usage: Usage | undefined;
  private readonly noted = new Set<string>();
  private brokenBy: string | undefined;
  /** Position of the chunk being read, for the paths of losses. */
  private chunkIndex = -1;
  private readonly pieceDelta = new RepeatedTextEvent([OPENAI_OBFUSCATION]);
  /** What the chunk `pieceDelta` learnt says but for its piece. */
  private learnt: LearntPiece = { kind: 'text' };

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.phase === 'failed') return [];
    if (event.data.trim() === '[DONE]') return this.phase === 'streaming' ? this.finish() : [];
    this.chunkIndex += 1;
    const piece = this.phase === 'streaming' ? this.pieceDelta.textOf(event.data) : undefined;
    if (piece !== undefined) {
      const out: StreamEvent[] = [];
      this.readPiece(piece, out);
      return out;
    }
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isJsonObject(parsed.value)) {
      this.phase = 'failed';
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    const read = openAIChatChunkSchema.safeParse(parsed.value);
    const chunk: OpenAIChatWireChunk = read.success ? read.data : {};
    if (this.phase === 'finished') return this.trailingUsage(chunk);
    if (chunk.error !== undefined && chunk.error !== null) return this.fail(chunk.error);

    const out: StreamEvent[] = [];
    this.start(chunk, event.data, out);
    const choices = chunk.choices ?? [];
    choices.forEach((choice) => {
      if (!choice) return;
      if (choice.index !== undefined && choice.index !== 0)
        return this.noteOnce('choices', 'choices', 'only the first choice is kept');
      this.readChoice(choice, out);
    });
    const usage = convertOpenAIChatUsage(chunk.usage);
    if (usage) this.usage = usage;
    if (usage && choices.length === 0 && this.finishReason) out.push(...this.finish());
    const plain = plainPieceOf(chunk);
    if (plain !== undefined) {
      this.learnt = plain.learnt;
      this.pieceDelta.learn(event.data, plain.member, plain.piece);
    }
    return out;
  }

  end(): StreamEvent[] {
    return this.phase === 'streaming' ? this.finish() : [];
  }

  broken(): string | undefined {
    return this.brokenBy;
  }

  private start(chunk: OpenAIChatWireChunk, data: string, out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    this.responseId = chunk.id || chatCompletionId(undefined, data);
    out.push({
      type: 'response-start',
      id: this.responseId,
      model: chunk.model ?? '',
      created: chunk.created ?? Math.floor(Date.now() / 1000),
    });
  }

  private readChoice(choice: OpenAIChatWireChunkChoice, out: StreamEvent[]): void {
    const delta = choice.delta ?? {};
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) this.appendText('reasoning', reasoning, out);
    if (delta.content) this.appendText('text', delta.content, out);
    if (delta.refusal) {
      this.noteOnce('refusal', 'choices[0].delta.refusal', 'a refusal streams as plain text', 'coerced');
      this.refused = true;
      this.appendText('text', delta.refusal, out);
    }
    const images = decodeGeneratedImages(delta.images, {
      path: `chunk[${this.chunkIndex}].choices[0].delta.images`,
      losses: this.losses,
    });
    for (const file of images) {
      this.closeText(out);
      this.closeCalls(out);
      out.push({ type: 'file', index: this.nextIndex++, file });
    }
    delta.tool_calls?.forEach((call, position) => {
      if (call) this.readToolCall(call.index ?? position, call, out);
    });
    if (delta.function_call) this.readToolCall(LEGACY_FUNCTION_CALL, { function: delta.function_call }, out);
    if (choice.finish_reason) {
      this.closeAll(out);
      this.finishReason = mapOpenAIChatFinishReason(choice.finish_reason, { refused: this.refused });
    }
  }

  /** Text after tool calls: the calls are complete. */
  private appendText(kind: 'text' | 'reasoning', text: string, out: StreamEvent[]): void {
    if (this.text?.kind !== kind) {
      this.closeText(out);
      this.closeCalls(out);
      const index = this.nextIndex++;
      this.text = { kind, index };
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index });
    }
    const { index } = this.text;
    out.push(
      kind === 'text' ? { type: 'text-delta', index, text } : { type: 'reasoning-delta', index, text },
    );
  }

  /** A piece of a chunk equal to the learnt one but for it, read as that chunk's piece is. */
  private readPiece(piece: string, out: StreamEvent[]): void {
    const { learnt } = this;
    if (learnt.kind !== 'arguments') {
      if (piece) this.appendText(learnt.kind, piece, out);
      return;
    }
    const { call, wireIndex } = learnt;
    this.readToolCall(wireIndex, { ...call, function: { ...call.function, arguments: piece } }, out);
  }

  private readToolCall(wireIndex: number, call: OpenAIChatWireToolCall, out: StreamEvent[]): void {
    const fn = call.function ?? {};
    const id = call.id || undefined;
    let state = this.calls.get(wireIndex);
    // Some servers number every call 0; a new id under a used index is a new call.
    if (!state || (id !== undefined && state.id !== undefined && id !== state.id)) {
      if (state) this.closeCall(state, out);
      state = { wireIndex, id, name: undefined, buffered: '', status: 'pending', index: -1 };
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
    if (fn.name) state.name ??= fn.name;
    const piece = asString(fn.arguments) ?? '';
    if (state.status === 'pending') {
      state.buffered += piece;
      if (state.name !== undefined) this.openCall(state, out);
      return;
    }
    if (piece !== '') out.push({ type: 'tool-call-delta', index: state.index, argumentsDelta: piece });
  }

  /** A call starts once named; text before it has ended (text after it ends the calls instead). */
  private openCall(state: ToolCallState, out: StreamEvent[]): void {
    this.closeText(out);
    state.index = this.nextIndex++;
    state.status = 'open';
    const id = state.id ?? toolCallId(`${this.responseId}:${state.wireIndex}`);
    out.push({ type: 'tool-call-start', index: state.index, id, name: state.name ?? '' });
    if (state.buffered !== '')
      out.push({ type: 'tool-call-delta', index: state.index, argumentsDelta: state.buffered });
    state.buffered = '';
  }

  private closeCall(state: ToolCallState, out: StreamEvent[]): void {
    if (state.status !== 'open') return;
    state.status = 'closed';
    out.push({ type: 'tool-call-end', index: state.index });
  }

  /** Closes the open calls, in the order they started. */
  private closeCalls(out: StreamEvent[]): void {
    const open = [...this.calls.values()].filter((state) => state.status === 'open');
    for (const state of open.sort((left, right) => left.index - right.index)) this.closeCall(state, out);
  }

  private closeText(out: StreamEvent[]): void {
    const open = this.text;
    if (!open) return;
    this.text = undefined;
    out.push(
      open.kind === 'text'
        ? { type: 'text-end', index: open.index }
        : { type: 'reasoning-end', index: open.index },
    );
  }

  /** Closes every open block, and starts and closes calls whose name never came. */
  private closeAll(out: StreamEvent[]): void {
    this.closeText(out);
    this.closeCalls(out);
    for (const state of this.calls.values()) {
      if (state.status !== 'pending') continue;
      this.losses.coerced(
        `tool_calls[${state.wireIndex}].function.name`,
        'the upstream never named this tool call',
      );
      this.openCall(state, out);
      this.closeCall(state, out);
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

  private trailingUsage(chunk: OpenAIChatWireChunk): StreamEvent[] {
    const usage = convertOpenAIChatUsage(chunk.usage);
    return usage ? [{ type: 'usage', usage }] : [];
  }

  /**
   * `data: {"error": {...}}` mid-stream (https://platform.openai.com/docs/guides/error-codes). OpenAI
   * names the kind in `type` / `code`; compatible servers (OpenRouter, vLLM) give the HTTP status as
   * a numeric `code` or as `status`.
   */
  private fail(error: unknown): StreamEvent[] {
    this.phase = 'failed';
    const record = isJsonObject(error) ? error : {};
    const message = asString(record.message) ?? (typeof error === 'string' ? error : JSON.stringify(error));
    const code = record.code ?? record.type;
    const event: StreamError = { type: 'error', message };
    if (typeof code === 'string' || typeof code === 'number') event.code = String(code);
    const status = httpStatus(record.status) ?? httpStatus(record.code);
    if (status !== undefined) event.status = status;
    return [event];
  }

  private noteOnce(key: string, path: string, reason: string, kind: 'dropped' | 'coerced' = 'dropped'): void {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.losses[kind](path, reason);
  }
}

/** What a learnt chunk says but for its piece: text, reasoning, or one call's arguments. */
type LearntPiece =
  { kind: 'text' | 'reasoning' } | { kind: 'arguments'; call: OpenAIChatWireToolCall; wireIndex: number };

/**
 * The one piece a chunk says, when it says nothing else: one choice's content, its reasoning
 * (DeepSeek's `reasoning_content`, OpenRouter's `reasoning`) beside no content, or one tool call's
 * arguments beside neither; no usage (`null` aside, which OpenAI sends in every chunk but the last
 * when usage is asked for), no finish, no refusal or images. Chunks equal to it but for that piece
 * then read the same but for it.
 */
function plainPieceOf(
  chunk: OpenAIChatWireChunk,
): { member: string; piece: string; learnt: LearntPiece } | undefined {
  if (chunk.usage !== undefined && chunk.usage !== null) return undefined;
  const choice = chunk.choices?.length === 1 ? chunk.choices[0] : undefined;
  if (!choice || (choice.index !== undefined && choice.index !== 0) || choice.finish_reason) return undefined;
  const delta = choice.delta;
  if (!delta || delta.refusal || delta.images?.length || delta.function_call) return undefined;
  const { content, reasoning_content: reasoningContent, reasoning, tool_calls: calls } = delta;
  if (calls?.length) {
    const call = calls.length === 1 ? calls[0] : undefined;
    const piece = call?.function?.arguments;
    if (content || reasoningContent || reasoning || typeof piece !== 'string') return undefined;
    return {
      member: 'arguments',
      piece,
      learnt: { kind: 'arguments', call: call!, wireIndex: call!.index ?? 0 },
    };
  }
  if (typeof content === 'string' && !reasoningContent && !reasoning)
    return { member: 'content', piece: content, learnt: { kind: 'text' } };
  if (content) return undefined;
  // `reasoning_content` is read before `reasoning`, as `readChoice` reads them.
  if (typeof reasoningContent === 'string')
    return { member: 'reasoning_content', piece: reasoningContent, learnt: { kind: 'reasoning' } };
  return typeof reasoning === 'string'
    ? { member: 'reasoning', piece: reasoning, learnt: { kind: 'reasoning' } }
    : undefined;
}

function httpStatus(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 400 && number <= 599
    ? number
    : undefined;
}
