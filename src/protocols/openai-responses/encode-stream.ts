import type { IssuedToken } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import { emptyUsage, type Usage } from '../../ir/usage.js';
import { estimateUnlessReported, type StreamEncoder, type StreamEncoderOptions } from '../protocol-codec.js';
import { formatSseEvent } from '../sse/sse-event-reader.js';
import { toOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import { toOpenAIResponsesErrorCode } from './map-openai-responses-error-status.js';
import { toOpenAIResponsesEnding } from './map-openai-responses-finish-reason.js';
import { generatedImageItem } from './generated-image-item.js';
import { encryptedContentForClient, toolCallSignatureItem } from './reasoning-item.js';
import { buildResponseObject, functionCallItem, messageItem, outputText } from './response-object.js';
import { deriveItemId, toResponseId } from './responses-ids.js';
import { RepeatedDeltaEvent } from './repeated-delta-event.js';
import type {
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesReasoningItem,
  ResponsesResponse,
  ResponsesStreamEventData,
  ResponsesStreamEventType,
} from './wire-types.js';

interface MessageState {
  outputIndex: number;
  id: string;
  content: ResponsesOutputText[];
  openParts: number;
  /** No more text parts join it: another item began after it. */
  sealed: boolean;
}

/** The block's delta events, learnt from its first to write the next (`RepeatedDeltaEvent`). */
interface Deltas {
  deltas?: RepeatedDeltaEvent;
}

type Block = Deltas &
  (
    | { kind: 'text'; message: MessageState; contentIndex: number; text: string }
    | {
        kind: 'reasoning';
        index: number;
        outputIndex: number;
        id: string;
        redactedData: IssuedToken | undefined;
        signature: IssuedToken | undefined;
        text: string;
        partOpen: boolean;
      }
    | {
        kind: 'tool-call';
        outputIndex: number;
        id: string;
        callId: string;
        name: string;
        arguments: string;
        signature: IssuedToken | undefined;
      }
  );

type Phase = 'before-start' | 'streaming' | 'awaiting-usage' | 'closed';

/**
 * Canonical events -> Responses stream events, as the API streams them
 * (https://platform.openai.com/docs/api-reference/responses-streaming; client-api section 6):
 * `event: <type>` and `data` with `type` and `sequence_number` from 0. A text block is a content
 * part of a message item, a reasoning block a reasoning item with one summary part, a tool call a
 * function_call item, a generated image a whole `image_generation_call` item. The final `response.completed` (or `response.incomplete` / `response.failed`)
 * carries the whole response with usage; when the finish came without usage it waits for a
 * trailing usage event or the end of the stream. An `error` ends the stream with `error` and
 * `response.failed`, even after the finish.
 */
export class OpenAIResponsesStreamEncoder implements StreamEncoder {
  private phase: Phase = 'before-start';
  private sequence = 0;
  private responseId = '';
  private created = 0;
  private readonly output: ResponsesOutputItem[] = [];
  private readonly blocks = new Map<number, Block>();
  private message: MessageState | undefined;
  private usage: Usage | undefined;
  private finishReason: FinishReason = { unified: 'other', raw: undefined };

  constructor(private readonly options: StreamEncoderOptions) {}

  private get losses(): LossLog {
    return this.options.losses;
  }

  push(event: StreamEvent): string {
    if (this.phase === 'closed') return '';
    const out: string[] = [];
    if (event.type === 'error') {
      this.fail(out, event);
      return out.join('');
    }
    if (this.phase === 'awaiting-usage') {
      if (event.type === 'usage') this.usage = event.usage;
      this.terminal(out);
      return out.join('');
    }
    if (this.phase === 'before-start') {
      this.start(out, event.type === 'response-start' ? event : { id: '', created: 0 });
      if (event.type === 'response-start') return out.join('');
    }
    const type = event.type;
    switch (type) {
      case 'response-start':
        break;
      case 'text-start':
        this.textStart(out, event.index);
        break;
      case 'text-delta': {
        const block = this.blocks.get(event.index);
        if (block?.kind !== 'text') break;
        block.text += event.text;
        if (this.repeatDelta(out, block, event.text)) break;
        // Every member written out, no spread: this runs for every delta (see `authenticate`).
        this.emit(out, 'response.output_text.delta', {
          item_id: block.message.id,
          output_index: block.message.outputIndex,
          content_index: block.contentIndex,
          delta: event.text,
          logprobs: [],
        });
        this.learnDelta(out, block, event.text);
        break;
      }
      case 'reasoning-start':
        this.itemStart(out);
        this.reasoningStart(out, event.index, event.redactedData);
        break;
      case 'reasoning-delta': {
        const block = this.blocks.get(event.index);
        if (block?.kind !== 'reasoning') break;
        const at = { item_id: block.id, output_index: block.outputIndex, summary_index: 0 };
        if (!block.partOpen) {
          block.partOpen = true;
          this.emit(out, 'response.reasoning_summary_part.added', {
            ...at,
            part: { type: 'summary_text', text: '' },
          });
        }
        block.text += event.text;
        if (this.repeatDelta(out, block, event.text)) break;
        this.emit(out, 'response.reasoning_summary_text.delta', {
          item_id: block.id,
          output_index: block.outputIndex,
          summary_index: 0,
          delta: event.text,
        });
        this.learnDelta(out, block, event.text);
        break;
      }
      case 'tool-call-start': {
        this.itemStart(out);
        const outputIndex = this.output.length;
        const id = deriveItemId({ prefix: 'fc_', responseId: this.responseId, outputIndex });
        const block: Block = {
          kind: 'tool-call',
          outputIndex,
          id,
          callId: event.id,
          name: event.name,
          arguments: '',
          signature: undefined,
        };
        this.blocks.set(event.index, block);
        this.addItem(out, this.callItem(block, 'in_progress'));
        break;
      }
      case 'tool-call-delta': {
        const block = this.blocks.get(event.index);
        if (block?.kind !== 'tool-call') break;
        block.arguments += event.argumentsDelta;
        if (this.repeatDelta(out, block, event.argumentsDelta)) break;
        this.emit(out, 'response.function_call_arguments.delta', {
          item_id: block.id,
          output_index: block.outputIndex,
          delta: event.argumentsDelta,
        });
        this.learnDelta(out, block, event.argumentsDelta);
        break;
      }
      case 'text-end':
        this.close(out, event.index);
        break;
      case 'reasoning-end':
      case 'tool-call-end': {
        // The signature is known only now: the item's end carries it (a call's in a reasoning item after it).
        const block = this.blocks.get(event.index);
        if (block && block.kind !== 'text') block.signature = event.signature;
        this.close(out, event.index);
        break;
      }
      case 'file': {
        const outputIndex = this.output.length;
        const item = generatedImageItem(event.file, {
          id: deriveItemId({ prefix: 'ig_', responseId: this.responseId, outputIndex }),
          path: `stream[${event.index}]`,
          losses: this.losses,
        });
        if (!item) break;
        this.itemStart(out);
        this.addItem(out, item);
        this.itemDone(out, outputIndex, item);
        break;
      }
      case 'usage':
        this.usage = event.usage;
        break;
      case 'finish':
        this.closeAll(out);
        this.finishReason = event.finishReason;
        if (event.usage) this.usage = event.usage;
        if (event.usage) this.terminal(out);
        else this.phase = 'awaiting-usage';
        break;
      default: {
        const never: never = type;
        return never;
      }
    }
    return out.join('');
  }

  end(): string {
    const out: string[] = [];
    if (this.phase === 'streaming') this.closeAll(out);
    if (this.phase === 'streaming' || this.phase === 'awaiting-usage') this.terminal(out);
    this.phase = 'closed';
    return out.join('');
  }

  private start(out: string[], event: { id: string; created: number }): void {
    this.phase = 'streaming';
    this.responseId = toResponseId(event.id);
    this.created = event.created;
    const response = this.response({ status: 'in_progress', incomplete_details: null, error: null }, null);
    this.emit(out, 'response.created', { response });
    this.emit(out, 'response.in_progress', { response });
  }

  /** A reasoning or tool-call item begins: the open message takes no more text parts. */
  private itemStart(out: string[]): void {
    const message = this.message;
    this.message = undefined;
    if (!message) return;
    message.sealed = true;
    if (message.openParts === 0) this.messageDone(out, message);
  }

  private textStart(out: string[], index: number): void {
    let message = this.message;
    if (!message) {
      const outputIndex = this.output.length;
      const id = deriveItemId({ prefix: 'msg_', responseId: this.responseId, outputIndex });
      message = { outputIndex, id, content: [], openParts: 0, sealed: false };
      this.message = message;
      this.addItem(out, messageItem({ id, status: 'in_progress', content: [] }));
    }
    const contentIndex = message.content.length;
    message.content.push(outputText(''));
    message.openParts += 1;
    this.blocks.set(index, { kind: 'text', message, contentIndex, text: '' });
    this.emit(out, 'response.content_part.added', {
      ...this.at(message),
      content_index: contentIndex,
      part: outputText(''),
    });
  }

  private reasoningStart(out: string[], index: number, redactedData: IssuedToken | undefined): void {
    const outputIndex = this.output.length;
    const id = deriveItemId({ prefix: 'rs_', responseId: this.responseId, outputIndex });
    const block: Block = {
      kind: 'reasoning',
      index,
      outputIndex,
      id,
      redactedData,
      signature: undefined,
      text: '',
      partOpen: false,
    };
    this.blocks.set(index, block);
    this.addItem(out, this.reasoningItem(block));
  }

  private close(out: string[], index: number): void {
    const block = this.blocks.get(index);
    if (!block) return;
    this.blocks.delete(index);
    const kind = block.kind;
    switch (kind) {
      case 'text': {
        const { message, contentIndex, text } = block;
        const at = { ...this.at(message), content_index: contentIndex };
        this.emit(out, 'response.output_text.done', { ...at, text, logprobs: [] });
        message.content[contentIndex] = outputText(text);
        this.emit(out, 'response.content_part.done', { ...at, part: outputText(text) });
        message.openParts -= 1;
        if (message.sealed && message.openParts === 0) this.messageDone(out, message);
        return;
      }
      case 'reasoning': {
        if (block.partOpen) {
          const at = { item_id: block.id, output_index: block.outputIndex, summary_index: 0 };
          this.emit(out, 'response.reasoning_summary_text.done', { ...at, text: block.text });
          this.emit(out, 'response.reasoning_summary_part.done', {
            ...at,
            part: { type: 'summary_text', text: block.text },
          });
        }
        this.itemDone(out, block.outputIndex, this.reasoningItem(block));
        return;
      }
      case 'tool-call': {
        this.emit(out, 'response.function_call_arguments.done', {
          item_id: block.id,
          output_index: block.outputIndex,
          name: block.name,
          arguments: block.arguments,
        });
        this.itemDone(out, block.outputIndex, this.callItem(block, 'completed'));
        if (block.signature !== undefined) {
          const outputIndex = this.output.length;
          const id = deriveItemId({ prefix: 'rs_', responseId: this.responseId, outputIndex });
          const item = toolCallSignatureItem(id, block.signature);
          this.addItem(out, item);
          this.itemDone(out, outputIndex, item);
        }
        return;
      }
      default: {
        const never: never = kind;
        return never;
      }
    }
  }

  private closeAll(out: string[]): void {
    for (const index of [...this.blocks.keys()]) this.close(out, index);
    this.itemStart(out);
  }

  private messageDone(out: string[], message: MessageState): void {
    this.itemDone(
      out,
      message.outputIndex,
      messageItem({ id: message.id, status: 'completed', content: message.content }),
    );
  }

  private addItem(out: string[], item: ResponsesOutputItem): void {
    const outputIndex = this.output.length;
    this.output.push(item);
    this.emit(out, 'response.output_item.added', { output_index: outputIndex, item });
  }

  private itemDone(out: string[], outputIndex: number, item: ResponsesOutputItem): void {
    this.output[outputIndex] = item;
    this.emit(out, 'response.output_item.done', { output_index: outputIndex, item });
  }

  /** The reasoning item as it stands: at its start only redacted data is known, the signature at its end. */
  private reasoningItem(block: Extract<Block, { kind: 'reasoning' }>): ResponsesReasoningItem {
    const item: ResponsesReasoningItem = { id: block.id, type: 'reasoning', summary: [] };
    if (block.text !== '') item.summary = [{ type: 'summary_text', text: block.text }];
    const encrypted = encryptedContentForClient(block, `stream.blocks[${block.index}]`, this.losses);
    if (encrypted !== undefined) item.encrypted_content = encrypted;
    return item;
  }

  private callItem(
    block: Extract<Block, { kind: 'tool-call' }>,
    status: 'in_progress' | 'completed',
  ): ResponsesOutputItem {
    return functionCallItem({
      id: block.id,
      status,
      callId: block.callId,
      name: block.name,
      arguments: block.arguments,
    });
  }

  /** The terminal lifecycle event, with the whole response and its usage. */
  private terminal(out: string[]): void {
    const ending = toOpenAIResponsesEnding(this.finishReason);
    const usage = toOpenAIResponsesUsage({
      usage: this.usage ?? emptyUsage(),
      losses: this.losses,
      path: 'stream.usage',
      fallbackInputTokens: estimateUnlessReported(this.usage, this.options),
    });
    this.emit(out, `response.${ending.status}`, { response: this.response(ending, usage) });
    this.phase = 'closed';
  }

  /**
   * An error ends the stream, never a completion: `error`, which the OpenAI SDK raises, then
   * `response.failed` for clients that wait for a terminal event.
   */
  private fail(out: string[], event: { message: string; code?: string; status?: number }): void {
    if (this.phase === 'before-start') this.start(out, { id: '', created: 0 });
    const code = toOpenAIResponsesErrorCode(event.status);
    this.emit(out, 'error', { code: event.code ?? code, message: event.message, param: null });
    const ending = {
      status: 'failed' as const,
      incomplete_details: null,
      error: { code, message: event.message },
    };
    const usage =
      this.usage &&
      toOpenAIResponsesUsage({
        usage: this.usage,
        losses: this.losses,
        path: 'stream.usage',
        fallbackInputTokens: estimateUnlessReported(this.usage, this.options),
      });
    this.emit(out, 'response.failed', { response: this.response(ending, usage ?? null) });
    this.phase = 'closed';
  }

  private response(
    ending: Parameters<typeof buildResponseObject>[0]['ending'],
    usage: Parameters<typeof buildResponseObject>[0]['usage'],
  ): ResponsesResponse {
    return buildResponseObject({
      id: this.responseId,
      model: this.options.model,
      created: this.created,
      ending,
      output: [...this.output],
      usage,
    });
  }

  private at(message: MessageState): { item_id: string; output_index: number } {
    return { item_id: message.id, output_index: message.outputIndex };
  }

  /** Writes the block's next delta event around `delta` once its first was learnt; says whether it did. */
  private repeatDelta(out: string[], block: Deltas, delta: string): boolean {
    const written = block.deltas?.withDelta(this.sequence, delta);
    if (written === undefined) return false;
    this.sequence++;
    out.push(written);
    return true;
  }

  /** Learns the delta event just written for the block. */
  private learnDelta(out: string[], block: Deltas, delta: string): void {
    (block.deltas ??= new RepeatedDeltaEvent()).learn(out[out.length - 1]!, this.sequence - 1, delta);
  }

  private emit<T extends ResponsesStreamEventType>(
    out: string[],
    type: T,
    data: ResponsesStreamEventData[T],
  ): void {
    const payload = { type, sequence_number: this.sequence++, ...data };
    out.push(formatSseEvent({ event: type, data: JSON.stringify(payload) }));
  }
}
