import type { IssuedToken } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import { usageFromWire } from './convert-openai-responses-usage.js';
import { isJsonObject, membersOf, parseJson } from '../wire-json.js';
import {
  openAIResponsesStreamEventSchema,
  SEQUENCE_NUMBER,
  type OpenAIResponsesWireResponse as WireResponse,
  type OpenAIResponsesWireStreamEvent,
} from './wire-schemas.js';

type WireItem = NonNullable<OpenAIResponsesWireStreamEvent['item']>;
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason.js';
import { mapOpenAIResponsesErrorStatus } from './map-openai-responses-error-status.js';
import { readEncryptedContent, SUMMARY_SEPARATOR } from './reasoning-item.js';
import { OPENAI_OBFUSCATION, RepeatedTextEvent } from '../repeated-text-event.js';

type Block =
  | { kind: 'text'; index: number; text: string }
  | {
      kind: 'reasoning';
      index: number;
      summaryParts: number;
      withData: boolean;
      /** OpenAI's encrypted content (or a marked signature), sent with the block's end. */
      signature?: IssuedToken;
    }
  | { kind: 'tool-call'; index: number; arguments: string };

/**
 * Responses stream events (https://platform.openai.com/docs/api-reference/responses-streaming) ->
 * canonical events. One canonical block per output text part, per reasoning item (its summary
 * parts joined like the reply decoder joins them) and per function call item. `response.completed`
 * and `response.incomplete` finish; `response.failed` and `error` end the stream with an error. An
 * event that is not a JSON object breaks the stream.
 */
export class OpenAIResponsesStreamDecoder implements StreamDecoder {
  private started = false;
  private ended = false;
  private nextIndex = 0;
  private readonly blocks = new Map<string, Block>();
  private hasFunctionCalls = false;
  private hasRefusal = false;
  private webSearchCalls = 0;
  private brokenBy: string | undefined;
  private readonly repeatedDelta = new RepeatedTextEvent([SEQUENCE_NUMBER, OPENAI_OBFUSCATION]);
  /** What the learnt delta event is, when one is learnt. */
  private learntDelta: { type: string; outputIndex: number; contentIndex: number } | undefined;

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.ended) return [];
    const learnt = this.learntDelta;
    const piece = learnt && this.repeatedDelta.textOf(event.data);
    if (learnt && piece !== undefined) {
      const out: StreamEvent[] = [];
      this.delta(out, learnt.type, learnt.outputIndex, learnt.contentIndex, piece);
      return out;
    }
    const json = parseJson(event.data);
    const value = json.ok && isJsonObject(json.value) ? json.value : undefined;
    const parsed = value && openAIResponsesStreamEventSchema.safeParse(value);
    if (!value || !parsed?.success) {
      this.ended = true;
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    const data = parsed.data;
    const type = data.type ?? event.event ?? '';
    const out: StreamEvent[] = [];
    const response = data.response;
    this.ensureStarted(out, response);
    if (type === 'error') return this.fail(out, data.message === undefined && data.error ? data.error : data);
    const outputIndex = data.output_index ?? 0;
    const contentIndex = data.content_index ?? 0;
    const textKey = `text:${outputIndex}:${contentIndex}`;
    if (this.delta(out, type, outputIndex, contentIndex, data.delta ?? '')) {
      this.learnDelta(event.data, value, type, outputIndex, contentIndex);
      return out;
    }
    switch (type) {
      case 'response.output_item.added':
        this.itemAdded(out, outputIndex, data.item ?? {});
        break;
      case 'response.output_item.done':
        this.itemDone(out, outputIndex, data.item ?? {});
        break;
      case 'response.content_part.added':
        if (data.part?.type === 'refusal') this.hasRefusal = true;
        if (isTextPart(data.part)) this.open(out, textKey, 'text');
        break;
      case 'response.content_part.done':
        if (isTextPart(data.part)) this.close(out, textKey);
        break;
      case 'response.output_text.done':
      case 'response.refusal.done':
        this.completeText(out, textKey, data.text ?? data.refusal);
        break;
      case 'response.reasoning_summary_part.added': {
        const block = this.open(out, `reasoning:${outputIndex}`, 'reasoning');
        if (block.kind === 'reasoning' && block.summaryParts++ > 0) {
          out.push({ type: 'reasoning-delta', index: block.index, text: SUMMARY_SEPARATOR });
        }
        break;
      }
      case 'response.function_call_arguments.done':
        this.completeArguments(out, outputIndex, data.arguments);
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.finish(out, response ?? {}, membersOf(value.response).usage);
        break;
      case 'response.failed':
        return this.fail(out, response?.error ?? {});
      case 'response.output_text.annotation.added':
        this.losses.dropped(
          `output[${outputIndex}].content[${contentIndex}].annotations`,
          'citations have no place in the canonical stream',
        );
        break;
      default:
        // Lifecycle (created, in_progress, queued), hosted tool progress, annotations, keepalive: no canonical event.
        break;
    }
    return out;
  }

  end(): StreamEvent[] {
    if (this.ended) return [];
    const out: StreamEvent[] = [];
    this.ensureStarted(out, undefined);
    this.closeAll(out);
    out.push({ type: 'finish', finishReason: { unified: 'other', raw: undefined } });
    this.ended = true;
    return out;
  }

  broken(): string | undefined {
    return this.brokenBy;
  }

  /** A delta of output text, refusal, reasoning or call arguments; false for an event of any other type. */
  private delta(
    out: StreamEvent[],
    type: string,
    outputIndex: number,
    contentIndex: number,
    delta: string,
  ): boolean {
    switch (type) {
      case 'response.refusal.delta':
        this.hasRefusal = true;
        this.text(out, `text:${outputIndex}:${contentIndex}`, delta);
        return true;
      case 'response.output_text.delta':
        this.text(out, `text:${outputIndex}:${contentIndex}`, delta);
        return true;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const block = this.open(out, `reasoning:${outputIndex}`, 'reasoning');
        if (delta !== '') out.push({ type: 'reasoning-delta', index: block.index, text: delta });
        return true;
      }
      case 'response.function_call_arguments.delta':
        this.argumentsDelta(out, outputIndex, delta);
        return true;
      default:
        return false;
    }
  }

  /**
   * Learns a delta event typed by its own `type` member whose delta is a string: the next events
   * equal to it but for the delta, the number and the padding are read by their delta alone, as
   * deltas of the same type and indexes. Anything else forgets it.
   */
  private learnDelta(
    data: string,
    value: Record<string, unknown>,
    type: string,
    outputIndex: number,
    contentIndex: number,
  ): void {
    if (value.type !== type || typeof value.delta !== 'string') {
      this.learntDelta = undefined;
      return;
    }
    this.repeatedDelta.learn(data, 'delta', value.delta);
    this.learntDelta = { type, outputIndex, contentIndex };
  }

  private ensureStarted(out: StreamEvent[], response: WireResponse | undefined): void {
    if (this.started) return;
    this.started = true;
    out.push({
      type: 'response-start',
      id: response?.id ?? '',
      model: response?.model ?? '',
      created: response?.created_at ?? 0,
    });
  }

  private itemAdded(out: StreamEvent[], outputIndex: number, item: WireItem): void {
    switch (item.type) {
      case 'message':
        return;
      case 'reasoning': {
        if (item.encrypted_content !== undefined)
          this.openReasoning(out, outputIndex, item.encrypted_content);
        return;
      }
      case 'function_call': {
        const block = this.openToolCall(out, outputIndex, item);
        const initial = item.arguments ?? '';
        if (initial !== '' && block.kind === 'tool-call') {
          block.arguments = initial;
          out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: initial });
        }
        return;
      }
      case 'web_search_call':
        this.webSearchCalls += 1;
        this.losses.dropped(`output[${outputIndex}]`, 'a web search call item has no canonical stream block');
        return;
      default:
        this.losses.dropped(
          `output[${outputIndex}]`,
          `a ${String(item.type)} item has no canonical stream block`,
        );
    }
  }

  /** An item's end closes its blocks; reasoning that streamed no summary shows up here for the first time. */
  private itemDone(out: StreamEvent[], outputIndex: number, item: WireItem): void {
    const encrypted = item.type === 'reasoning' ? item.encrypted_content : undefined;
    if (encrypted !== undefined) this.openReasoning(out, outputIndex, encrypted);
    if (item.type === 'function_call') this.completeArguments(out, outputIndex, item.arguments);
    for (const key of [...this.blocks.keys()]) {
      if (
        key === `reasoning:${outputIndex}` ||
        key === `tool:${outputIndex}` ||
        key.startsWith(`text:${outputIndex}:`)
      ) {
        this.close(out, key);
      }
    }
  }

  /**
   * A reasoning item's `encrypted_content`, at the item's start or end: OpenAI's own (or a marked
   * signature) goes with the block's end; redacted data opens the block, and when the summary has
   * already begun it has no canonical place.
   */
  private openReasoning(out: StreamEvent[], outputIndex: number, encrypted: string): void {
    const key = `reasoning:${outputIndex}`;
    const read = readEncryptedContent(encrypted);
    const existing = this.blocks.get(key);
    if ('signature' in read) {
      const block = existing ?? this.open(out, key, 'reasoning');
      if (block.kind === 'reasoning') block.signature = read.signature;
    } else if (!existing) {
      this.open(out, key, 'reasoning', read.redactedData);
    } else if (existing.kind === 'reasoning' && !existing.withData) {
      this.losses.dropped(
        `output[${outputIndex}].encrypted_content`,
        'redacted reasoning that arrives after its summary began has no place in the canonical stream',
      );
    }
  }

  private open(
    out: StreamEvent[],
    key: string,
    kind: 'text' | 'reasoning',
    redactedData?: IssuedToken,
  ): Block {
    const existing = this.blocks.get(key);
    if (existing) return existing;
    const index = this.nextIndex++;
    if (kind === 'text') {
      const block: Block = { kind, index, text: '' };
      this.blocks.set(key, block);
      out.push({ type: 'text-start', index });
      return block;
    }
    const block: Block = { kind, index, summaryParts: 0, withData: redactedData !== undefined };
    this.blocks.set(key, block);
    out.push(
      redactedData === undefined
        ? { type: 'reasoning-start', index }
        : { type: 'reasoning-start', index, redactedData },
    );
    return block;
  }

  private openToolCall(out: StreamEvent[], outputIndex: number, item: WireItem): Block {
    const key = `tool:${outputIndex}`;
    const existing = this.blocks.get(key);
    if (existing) return existing;
    this.hasFunctionCalls = true;
    const block: Block = { kind: 'tool-call', index: this.nextIndex++, arguments: '' };
    this.blocks.set(key, block);
    const id = item.call_id ?? item.id ?? `call_${outputIndex}`;
    out.push({ type: 'tool-call-start', index: block.index, id, name: item.name ?? '' });
    return block;
  }

  private text(out: StreamEvent[], key: string, delta: string): void {
    const block = this.open(out, key, 'text');
    if (block.kind !== 'text' || delta === '') return;
    block.text += delta;
    out.push({ type: 'text-delta', index: block.index, text: delta });
  }

  /** A `.done` event with the whole text: anything the deltas missed is sent as a last delta. */
  private completeText(out: StreamEvent[], key: string, full: string | undefined): void {
    const block = this.blocks.get(key);
    if (full === undefined || (block && block.kind !== 'text')) return;
    const sent = block?.kind === 'text' ? block.text : '';
    if (full.length > sent.length && full.startsWith(sent)) this.text(out, key, full.slice(sent.length));
  }

  private argumentsDelta(out: StreamEvent[], outputIndex: number, delta: string): void {
    const block = this.openToolCall(out, outputIndex, {});
    if (block.kind !== 'tool-call' || delta === '') return;
    block.arguments += delta;
    out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: delta });
  }

  private completeArguments(out: StreamEvent[], outputIndex: number, full: string | undefined): void {
    const block = this.blocks.get(`tool:${outputIndex}`);
    if (full === undefined || !block || block.kind !== 'tool-call') return;
    if (full.length > block.arguments.length && full.startsWith(block.arguments)) {
      this.argumentsDelta(out, outputIndex, full.slice(block.arguments.length));
    }
  }

  private close(out: StreamEvent[], key: string): void {
    const block = this.blocks.get(key);
    if (!block) return;
    this.blocks.delete(key);
    const kind = block.kind;
    switch (kind) {
      case 'text':
        out.push({ type: 'text-end', index: block.index });
        return;
      case 'reasoning':
        out.push(
          block.signature === undefined
            ? { type: 'reasoning-end', index: block.index }
            : { type: 'reasoning-end', index: block.index, signature: block.signature },
        );
        return;
      case 'tool-call':
        out.push({ type: 'tool-call-end', index: block.index });
        return;
      default: {
        const never: never = kind;
        return never;
      }
    }
  }

  private closeAll(out: StreamEvent[]): void {
    for (const key of [...this.blocks.keys()]) this.close(out, key);
  }

  private finish(out: StreamEvent[], response: WireResponse, rawUsage: unknown): void {
    this.closeAll(out);
    const finishReason = mapOpenAIResponsesFinishReason({
      status: response.status,
      incompleteReason: response.incomplete_details?.reason,
      hasFunctionCalls: this.hasFunctionCalls,
      hasRefusal: this.hasRefusal,
    });
    const usage = this.usageOf(response.usage, rawUsage);
    out.push(usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason });
    this.ended = true;
  }

  private usageOf(wire: WireResponse['usage'], raw: unknown): Usage | undefined {
    const usage = usageFromWire(wire, raw);
    return usage ? { ...usage, webSearchCalls: this.webSearchCalls } : undefined;
  }

  /** `error` events and failed responses carry a code; the HTTP status it stands for goes with it. */
  /**
   * An `error` event, or a failed response's `error`. Some compatible servers nest the error
   * object in the event: `{ type: 'error', error: { message, code } }`.
   */
  private fail(out: StreamEvent[], error: { message?: string; code?: string }): StreamEvent[] {
    const message = error.message ?? 'The upstream response failed.';
    const code = error.code;
    const status = mapOpenAIResponsesErrorStatus(code);
    out.push({
      type: 'error',
      message,
      ...(code !== undefined && { code }),
      ...(status !== undefined && { status }),
    });
    this.ended = true;
    return out;
  }
}

/** Message content parts that carry text (reasoning_text parts stream into the reasoning block instead). */
function isTextPart(part: { type?: string } | undefined): boolean {
  return part?.type === 'output_text' || part?.type === 'refusal';
}
