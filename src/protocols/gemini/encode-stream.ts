import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.js';
import { encodeGeminiUsage } from './encode-gemini-usage.js';
import { encodeGeminiFinishReason } from './map-gemini-finish-reason.js';
import { formatGeminiStreamError } from './stream-error-event.js';
import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';

interface BufferedCall {
  id: string;
  name: string;
  arguments: string[];
}

/**
 * Canonical events as `streamGenerateContent?alt=sse` chunks
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent): one
 * GenerateContentResponse per text or thought delta, each function call whole when it ends (only
 * its own argument deltas are held), and a last chunk with `finishReason` and `usageMetadata`.
 * A signature ending thoughts follows them as an empty thought part; a signature with no thoughts
 * rides on the next text part or function call, as Gemini writes it. An `error` ends the stream
 * with `data: {"error": {...}}`, which `@google/genai` raises as an `ApiError`.
 */
export class GeminiStreamEncoder implements StreamEncoder {
  private responseId = '';
  private readonly losses: LossLog;
  private pendingSignature: string | undefined;
  private readonly reasoningHadText = new Map<number, boolean>();
  private readonly calls = new Map<number, BufferedCall>();
  private usage: Usage | undefined;
  private finished = false;
  private failed = false;

  constructor(private readonly options: StreamEncoderOptions) {
    this.losses = options.losses;
  }

  push(event: StreamEvent): string {
    if (this.failed || (this.finished && event.type !== 'usage' && event.type !== 'error')) return '';
    switch (event.type) {
      case 'response-start':
        this.responseId = event.id;
        return '';
      case 'text-start':
      case 'text-end':
        return '';
      case 'text-delta':
        if (event.text === '') return '';
        return this.chunk([{ text: event.text, ...this.takeSignature() }]);
      case 'reasoning-start':
        if (event.redactedData !== undefined)
          this.losses.dropped(`reasoning[${event.index}].redactedData`, 'Gemini has no redacted reasoning');
        this.reasoningHadText.set(event.index, false);
        return '';
      case 'reasoning-delta':
        if (event.text === '') return '';
        this.reasoningHadText.set(event.index, true);
        return this.flushSignature() + this.chunk([{ text: event.text, thought: true }]);
      case 'reasoning-end': {
        const hadText = this.reasoningHadText.get(event.index) === true;
        this.reasoningHadText.delete(event.index);
        if (event.signature === undefined) return '';
        const flushed = this.flushSignature();
        if (hadText)
          return flushed + this.chunk([{ text: '', thought: true, thoughtSignature: event.signature }]);
        this.pendingSignature = event.signature;
        return flushed;
      }
      case 'tool-call-start':
        this.calls.set(event.index, { id: event.id, name: event.name, arguments: [] });
        return '';
      case 'tool-call-delta':
        this.calls.get(event.index)?.arguments.push(event.argumentsDelta);
        return '';
      case 'tool-call-end':
        return this.endCall(event.index, event.signature);
      case 'usage':
        this.usage = event.usage;
        if (!this.finished) return '';
        return this.frame({ usageMetadata: this.usageMetadata(event.usage), ...this.envelope() });
      case 'finish':
        return this.finish(event.finishReason, event.usage);
      case 'error':
        this.failed = true;
        return formatGeminiStreamError({ message: event.message, code: event.code });
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  }

  end(): string {
    return '';
  }

  private endCall(index: number, signature: string | undefined): string {
    const call = this.calls.get(index);
    if (!call) return '';
    this.calls.delete(index);
    const text = call.arguments.join('').trim();
    const parsed = text === '' ? { ok: true as const, value: {} } : parseJson(text);
    let args: JsonObject;
    if (parsed.ok && isJsonObject(parsed.value)) args = parsed.value;
    else {
      this.losses.coerced(
        `toolCalls[${index}].arguments`,
        'not a JSON object; sent as {"arguments": <text>}',
      );
      args = { arguments: call.arguments.join('') };
    }
    const flushed = signature !== undefined ? this.flushSignature() : '';
    const signed = signature !== undefined ? { thoughtSignature: signature } : this.takeSignature();
    return flushed + this.chunk([{ functionCall: { id: call.id, name: call.name, args }, ...signed }]);
  }

  private finish(
    finishReason: Parameters<typeof encodeGeminiFinishReason>[0],
    usage: Usage | undefined,
  ): string {
    this.finished = true;
    if (usage) this.usage = usage;
    for (const index of this.calls.keys())
      this.losses.dropped(`toolCalls[${index}]`, 'a tool call that never ended');
    return this.frame({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: '', ...this.takeSignature() }] },
          finishReason: encodeGeminiFinishReason(finishReason),
          index: 0,
        },
      ],
      usageMetadata: this.usageMetadata(this.usage),
      ...this.envelope(),
    });
  }

  private usageMetadata(usage: Usage | undefined): JsonObject {
    return encodeGeminiUsage(usage, this.options.estimatedInputTokens);
  }

  private chunk(parts: JsonObject[]): string {
    return this.frame({ candidates: [{ content: { role: 'model', parts }, index: 0 }], ...this.envelope() });
  }

  private envelope(): JsonObject {
    return { modelVersion: this.options.model, responseId: this.responseId };
  }

  private frame(response: JsonObject): string {
    return `data: ${JSON.stringify(response)}\r\n\r\n`;
  }

  private takeSignature(): JsonObject {
    const signature = this.pendingSignature;
    this.pendingSignature = undefined;
    return signature === undefined ? {} : { thoughtSignature: signature };
  }

  private flushSignature(): string {
    if (this.pendingSignature === undefined) return '';
    return this.chunk([{ text: '', ...this.takeSignature() }]);
  }
}
