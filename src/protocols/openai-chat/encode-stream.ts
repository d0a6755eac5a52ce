import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.js';
import { encodeOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { encodeGeneratedImage } from './encode-generated-image.js';
import type { JsonObject } from '../wire-json.js';
import { toOpenAIChatFinishReason, type OpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId } from './openai-chat-ids.js';
import {
  encodeReasoningDetails,
  encodeToolCallExtraContent,
  type ReasoningBlock,
} from './reasoning-details.js';
import type { OpenAIChatDelta, OpenAIChatGeneratedImage, OpenAIChatStreamError } from './wire-types.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';

const DONE = 'data: [DONE]\n\n';

/**
 * Canonical events -> chat completion chunks, as OpenAI streams them
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming): a first chunk with
 * `delta: {role: 'assistant', content: ''}`, content / `reasoning_content` / `tool_calls` deltas
 * (tool call indexes counted from 0, id and name in the first piece), a chunk with
 * `finish_reason`, then the usage chunk (`choices: []`) only when the client asked for it with
 * `stream_options.include_usage`, then `data: [DONE]`. An `error`, even after the finish, ends the
 * stream with `data: {"error": {...}}` (which the OpenAI SDK raises) and no `[DONE]`.
 *
 * Signatures travel as in replies (reasoning-details.ts): a Gemini signature in a tool call delta's
 * `extra_content` once the call ends, and every reasoning block, whole, in one
 * `delta.reasoning_details` just before the finish. One delta, because the OpenAI SDK's stream
 * helper (`ChatCompletionStream`) keeps only the last value of a delta member it does not know:
 * its final message then holds every block, ready to be echoed. Generated images
 * (encode-generated-image.ts) go the same way, all in one `delta.images` just before the finish:
 * sent one per delta, the helper's final message would hold the last image only.
 *
 * A chunk of nothing but a piece of content (or of reasoning) is the same chunk but for that piece
 * from the second on: it is written around the piece's JSON (`RepeatedTextEvent`) instead of being
 * built and serialised again.
 */
export class OpenAIChatStreamEncoder implements StreamEncoder {
  private phase: 'streaming' | 'finished' | 'failed' = 'streaming';
  private id = '';
  private created = 0;
  private started = false;
  private readonly toolIndexes = new Map<number, number>();
  /** Reasoning blocks by canonical index, in start order, for `reasoning_details`. */
  private readonly reasoning = new Map<number, ReasoningBlock>();
  /** Generated images, in order, for `images`. */
  private readonly images: OpenAIChatGeneratedImage[] = [];
  private usage: Usage | undefined;
  private readonly contentChunk = new RepeatedTextEvent();
  private readonly reasoningChunk = new RepeatedTextEvent();

  constructor(private readonly options: StreamEncoderOptions) {}

  push(event: StreamEvent): string {
    if (this.phase === 'failed') return '';
    if (this.phase === 'finished' && event.type !== 'error') {
      if (event.type === 'usage') this.usage = event.usage;
      return '';
    }
    switch (event.type) {
      case 'response-start':
        return this.start(event);
      case 'text-start':
      case 'text-end':
        return '';
      case 'text-delta':
        return this.piece(this.contentChunk, 'content', event.text);
      case 'reasoning-start':
        this.reasoning.set(event.index, {
          text: '',
          ...(event.redactedData && { redactedData: event.redactedData }),
        });
        return '';
      case 'reasoning-delta': {
        const block = this.reasoning.get(event.index);
        if (block) block.text += event.text;
        return this.piece(this.reasoningChunk, 'reasoning_content', event.text);
      }
      case 'reasoning-end': {
        const block = this.reasoning.get(event.index);
        if (block && event.signature) block.signature = event.signature;
        return '';
      }
      case 'tool-call-start': {
        const index = this.toolIndexes.size;
        this.toolIndexes.set(event.index, index);
        return this.chunk({
          tool_calls: [
            { index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } },
          ],
        });
      }
      case 'tool-call-delta':
        return this.chunk({
          tool_calls: [
            { index: this.toolIndexes.get(event.index) ?? 0, function: { arguments: event.argumentsDelta } },
          ],
        });
      case 'tool-call-end': {
        const extraContent = encodeToolCallExtraContent(event.signature, {
          path: `tool-call[${event.index}].signature`,
          losses: this.options.losses,
        });
        if (!extraContent) return '';
        return this.chunk({
          tool_calls: [{ index: this.toolIndexes.get(event.index) ?? 0, extra_content: extraContent }],
        });
      }
      case 'file': {
        const image = encodeGeneratedImage(event.file, {
          path: `stream[${event.index}]`,
          losses: this.options.losses,
        });
        if (image) this.images.push(image);
        return '';
      }
      case 'usage':
        this.usage = event.usage;
        return '';
      case 'finish': {
        if (event.usage) this.usage = event.usage;
        this.phase = 'finished';
        const finish = toOpenAIChatFinishReason(event.finishReason, {
          hasToolCalls: this.toolIndexes.size > 0,
        });
        if (!finish.exact)
          this.options.losses.coerced(
            'finish_reason',
            `${event.finishReason.unified} (${event.finishReason.raw ?? 'none'}) goes as ${finish.value}`,
          );
        return this.reasoningDetails() + this.generatedImages() + this.chunk({}, finish.value);
      }
      case 'error': {
        this.phase = 'failed';
        const error: OpenAIChatStreamError = {
          error: { message: event.message, type: 'gateway_api_error', param: null, code: event.code ?? null },
        };
        return this.data(error);
      }
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  }

  end(): string {
    if (this.phase === 'failed') return '';
    let text = '';
    if (this.phase === 'streaming') {
      this.options.losses.coerced('finish_reason', 'the stream ended without a finish; it goes as stop');
      text +=
        this.reasoningDetails() +
        this.generatedImages() +
        this.chunk({}, this.toolIndexes.size > 0 ? 'tool_calls' : 'stop');
    }
    if (this.options.includeUsage && this.usage)
      text += this.data(this.envelope({ choices: [], usage: encodeOpenAIChatUsage(this.usage) }));
    return text + DONE;
  }

  private start(event: { id: string; model: string; created: number }): string {
    if (this.started) return '';
    this.started = true;
    this.id = chatCompletionId(event.id, `${event.model}:${event.created}`);
    this.created = event.created;
    return this.chunk({ role: 'assistant', content: '', refusal: null });
  }

  private reasoningDetails(): string {
    if (this.reasoning.size === 0) return '';
    return this.chunk({ reasoning_details: encodeReasoningDetails([...this.reasoning.values()]) });
  }

  private generatedImages(): string {
    return this.images.length === 0 ? '' : this.chunk({ images: [...this.images] });
  }

  /** A chunk of one piece of text; the chunks after the stream's first are learnt and repeated. */
  private piece(repeated: RepeatedTextEvent, name: 'content' | 'reasoning_content', text: string): string {
    const written = repeated.withText(text);
    if (written !== undefined) return written;
    const started = this.started;
    const chunk = this.chunk(name === 'content' ? { content: text } : { reasoning_content: text });
    if (started) repeated.learn(chunk, name, text);
    return chunk;
  }

  private chunk(delta: OpenAIChatDelta, finishReason: OpenAIChatFinishReason | null = null): string {
    const opening = this.started
      ? ''
      : this.start({ id: '', model: this.options.model, created: nowSeconds() });
    return (
      opening +
      this.data(
        this.envelope({
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
          ...(this.options.includeUsage && { usage: null }),
        }),
      )
    );
  }

  /** A chunk: the envelope's members, then `members` (spread last: see `authenticate`). */
  private envelope(members: JsonObject): JsonObject {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.options.model,
      ...members,
    };
  }

  private data(payload: object): string {
    return `data: ${JSON.stringify(payload)}\n\n`;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
