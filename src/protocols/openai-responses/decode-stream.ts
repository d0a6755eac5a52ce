import type { LossLog } from '../../ir/loss.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import { convertOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import {
  membersOf,
  isJsonObject,
  parseJson,
  asFiniteNumber,
  asString,
  type JsonObject,
} from '../wire-json.js';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason.js';
import { SUMMARY_SEPARATOR } from './reasoning-item.js';

type Block =
  | { kind: 'text'; index: number; text: string }
  | { kind: 'reasoning'; index: number; summaryParts: number; withData: boolean }
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
  private webSearchCalls = 0;
  private brokenBy: string | undefined;

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.ended) return [];
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isJsonObject(parsed.value)) {
      this.ended = true;
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    const data = parsed.value;
    const type = asString(data.type) ?? event.event ?? '';
    const out: StreamEvent[] = [];
    const response = isJsonObject(data.response) ? data.response : undefined;
    this.ensureStarted(out, response);
    if (type === 'error') return this.fail(out, data);
    const outputIndex = asFiniteNumber(data.output_index) ?? 0;
    const contentIndex = asFiniteNumber(data.content_index) ?? 0;
    const textKey = `text:${outputIndex}:${contentIndex}`;
    switch (type) {
      case 'response.output_item.added':
        this.itemAdded(out, outputIndex, membersOf(data.item));
        break;
      case 'response.output_item.done':
        this.itemDone(out, outputIndex, membersOf(data.item));
        break;
      case 'response.content_part.added':
        if (isTextPart(data.part)) this.open(out, textKey, 'text');
        break;
      case 'response.content_part.done':
        if (isTextPart(data.part)) this.close(out, textKey);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.text(out, textKey, asString(data.delta) ?? '');
        break;
      case 'response.output_text.done':
      case 'response.refusal.done':
        this.completeText(out, textKey, asString(data.text) ?? asString(data.refusal));
        break;
      case 'response.reasoning_summary_part.added': {
        const block = this.open(out, `reasoning:${outputIndex}`, 'reasoning');
        if (block.kind === 'reasoning' && block.summaryParts++ > 0) {
          out.push({ type: 'reasoning-delta', index: block.index, text: SUMMARY_SEPARATOR });
        }
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const block = this.open(out, `reasoning:${outputIndex}`, 'reasoning');
        const delta = asString(data.delta) ?? '';
        if (delta !== '') out.push({ type: 'reasoning-delta', index: block.index, text: delta });
        break;
      }
      case 'response.function_call_arguments.delta':
        this.argumentsDelta(out, outputIndex, asString(data.delta) ?? '');
        break;
      case 'response.function_call_arguments.done':
        this.completeArguments(out, outputIndex, asString(data.arguments));
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.finish(out, response ?? {});
        break;
      case 'response.failed':
        return this.fail(out, membersOf(response?.error));
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

  private ensureStarted(out: StreamEvent[], response: JsonObject | undefined): void {
    if (this.started) return;
    this.started = true;
    out.push({
      type: 'response-start',
      id: asString(response?.id) ?? '',
      model: asString(response?.model) ?? '',
      created: asFiniteNumber(response?.created_at) ?? 0,
    });
  }

  private itemAdded(out: StreamEvent[], outputIndex: number, item: JsonObject): void {
    switch (item.type) {
      case 'message':
        return;
      case 'reasoning': {
        const encrypted = asString(item.encrypted_content);
        if (encrypted !== undefined) this.open(out, `reasoning:${outputIndex}`, 'reasoning', encrypted);
        return;
      }
      case 'function_call': {
        const block = this.openToolCall(out, outputIndex, item);
        const initial = asString(item.arguments) ?? '';
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
  private itemDone(out: StreamEvent[], outputIndex: number, item: JsonObject): void {
    if (item.type === 'reasoning') {
      const key = `reasoning:${outputIndex}`;
      const encrypted = asString(item.encrypted_content);
      const block = this.blocks.get(key);
      if (!block && encrypted !== undefined) this.open(out, key, 'reasoning', encrypted);
      else if (block?.kind === 'reasoning' && encrypted !== undefined && !block.withData) {
        this.losses.dropped(
          `output[${outputIndex}].encrypted_content`,
          'encrypted reasoning that arrives after its summary began has no place in the canonical stream',
        );
      }
    }
    if (item.type === 'function_call') this.completeArguments(out, outputIndex, asString(item.arguments));
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

  private open(out: StreamEvent[], key: string, kind: 'text' | 'reasoning', redactedData?: string): Block {
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

  private openToolCall(out: StreamEvent[], outputIndex: number, item: JsonObject): Block {
    const key = `tool:${outputIndex}`;
    const existing = this.blocks.get(key);
    if (existing) return existing;
    this.hasFunctionCalls = true;
    const block: Block = { kind: 'tool-call', index: this.nextIndex++, arguments: '' };
    this.blocks.set(key, block);
    const id = asString(item.call_id) ?? asString(item.id) ?? `call_${outputIndex}`;
    out.push({ type: 'tool-call-start', index: block.index, id, name: asString(item.name) ?? '' });
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
        out.push({ type: 'reasoning-end', index: block.index });
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

  private finish(out: StreamEvent[], response: JsonObject): void {
    this.closeAll(out);
    const finishReason = mapOpenAIResponsesFinishReason({
      status: asString(response.status),
      incompleteReason: asString(membersOf(response.incomplete_details).reason),
      hasFunctionCalls: this.hasFunctionCalls,
    });
    const usage = this.usageOf(response.usage);
    out.push(usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason });
    this.ended = true;
  }

  private usageOf(raw: unknown): Usage | undefined {
    const usage = convertOpenAIResponsesUsage(raw);
    return usage ? { ...usage, webSearchCalls: this.webSearchCalls } : undefined;
  }

  private fail(out: StreamEvent[], error: JsonObject): StreamEvent[] {
    const message = asString(error.message) ?? 'The upstream response failed.';
    const code = asString(error.code);
    out.push(code === undefined ? { type: 'error', message } : { type: 'error', message, code });
    this.ended = true;
    return out;
  }
}

/** Message content parts that carry text (reasoning_text parts stream into the reasoning block instead). */
function isTextPart(part: unknown): boolean {
  return isJsonObject(part) && (part.type === 'output_text' || part.type === 'refusal');
}
