import type { IssuedToken } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import { estimateUnlessReported, type StreamEncoder, type StreamEncoderOptions } from '../protocol-codec.js';
import { encodeGeminiFile } from './encode-file.js';
import { encodeGeminiUsage } from './encode-gemini-usage.js';
import { encodeGeminiFinishReason } from './map-gemini-finish-reason.js';
import { writeIssuedToken } from '../issued-token.js';
import { GEMINI } from './gemini-extensions.js';
import { formatGeminiStreamError } from './stream-error-event.js';
import type { GeminiPart, GeminiResponse, GeminiUsageMetadata } from './wire-types.js';
import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';

interface BufferedCall {
  id: string;
  name: string;
  arguments: string[];
}

/**
 * Canonical events as `streamGenerateContent?alt=sse` chunks
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent): one
 * GenerateContentResponse per text or thought delta and per generated file, each function call
 * whole when it ends (only its own argument deltas are held), and a last chunk with
 * `finishReason` and `usageMetadata`. A signature ending thoughts follows them as an empty thought
 * part; a Gemini signature with no thoughts rides on the next text, file or function call part, as
 * Gemini writes it. Another vendor's
 * token (written behind its marker, so that it returns to its issuer) and redacted reasoning are
 * empty thought parts of their own. An `error` ends the stream with
 * `data: {"error": {code, message, status}}`, which `@google/genai` raises as an `ApiError`.
 *
 * A chunk of nothing but a piece of text (or of thought) without a signature is the same chunk but
 * for that piece from the second on: it is written around the piece's JSON (`RepeatedTextEvent`)
 * instead of being built and serialised again.
 */
export class GeminiStreamEncoder implements StreamEncoder {
  private responseId = '';
  private readonly losses: LossLog;
  private pendingSignature: string | undefined;
  private readonly reasoningHadText = new Map<number, boolean>();
  /** Redacted reasoning data by block, written when the block ends. */
  private readonly redactedData = new Map<number, string>();
  private readonly calls = new Map<number, BufferedCall>();
  private usage: Usage | undefined;
  private finished = false;
  private failed = false;
  private textChunk = new RepeatedTextEvent();
  private thoughtChunk = new RepeatedTextEvent();

  constructor(private readonly options: StreamEncoderOptions) {
    this.losses = options.losses;
  }

  push(event: StreamEvent): string {
    if (this.failed || (this.finished && event.type !== 'usage' && event.type !== 'error')) return '';
    switch (event.type) {
      case 'response-start':
        this.responseId = event.id;
        // The chunks learnt so far name the response id they were written with.
        this.textChunk = new RepeatedTextEvent();
        this.thoughtChunk = new RepeatedTextEvent();
        return '';
      case 'text-start':
      case 'text-end':
        return '';
      case 'text-delta':
        if (event.text === '') return '';
        if (this.pendingSignature === undefined) return this.piece(this.textChunk, event.text, false);
        return this.chunk([{ text: event.text, ...this.takeSignature() }]);
      case 'reasoning-start':
        this.reasoningHadText.set(event.index, false);
        if (event.redactedData !== undefined)
          this.redactedData.set(
            event.index,
            writeIssuedToken(event.redactedData, { ownVendor: GEMINI, role: 'redacted' }),
          );
        return '';
      case 'reasoning-delta':
        if (event.text === '') return '';
        this.reasoningHadText.set(event.index, true);
        return this.flushSignature() + this.piece(this.thoughtChunk, event.text, true);
      case 'reasoning-end':
        return this.endReasoning(event);
      case 'tool-call-start':
        this.calls.set(event.index, { id: event.id, name: event.name, arguments: [] });
        return '';
      case 'tool-call-delta':
        this.calls.get(event.index)?.arguments.push(event.argumentsDelta);
        return '';
      case 'tool-call-end':
        return this.endCall(event.index, event.signature);
      case 'file': {
        // A generated file is a part of its own, carrying a signature that waits for it.
        const file = encodeGeminiFile(event.file, `stream[${event.index}]`, this.losses);
        return file ? this.chunk([{ ...file, ...this.takeSignature() }]) : '';
      }
      case 'usage':
        this.usage = event.usage;
        if (!this.finished) return '';
        return this.frame({ usageMetadata: this.usageMetadata(event.usage), ...this.envelope() });
      case 'finish':
        return this.finish(event.finishReason, event.usage);
      case 'error':
        this.failed = true;
        return formatGeminiStreamError({ message: event.message, code: event.code, status: event.status });
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  }

  end(): string {
    return '';
  }

  /**
   * The tokens that close a reasoning block, as empty thought parts after its text. A Gemini
   * signature alone, after no text, waits for the next part instead, where Gemini puts it.
   */
  private endReasoning(event: Extract<StreamEvent, { type: 'reasoning-end' }>): string {
    const hadText = this.reasoningHadText.get(event.index) === true;
    const redacted = this.redactedData.get(event.index);
    this.reasoningHadText.delete(event.index);
    this.redactedData.delete(event.index);
    const closing: GeminiPart[] = [];
    if (event.signature !== undefined) {
      const signature = writeIssuedToken(event.signature, { ownVendor: GEMINI });
      if (hadText || event.signature.issuer !== GEMINI || redacted !== undefined)
        closing.push({ text: '', thought: true, thoughtSignature: signature });
      else {
        const flushed = this.flushSignature();
        this.pendingSignature = signature;
        return flushed;
      }
    }
    if (redacted !== undefined) closing.push({ text: '', thought: true, thoughtSignature: redacted });
    if (closing.length === 0) return '';
    return this.flushSignature() + this.chunk(closing);
  }

  private endCall(index: number, token: IssuedToken | undefined): string {
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
    const signature = token === undefined ? undefined : writeIssuedToken(token, { ownVendor: GEMINI });
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

  private usageMetadata(usage: Usage | undefined): GeminiUsageMetadata {
    return encodeGeminiUsage(usage, estimateUnlessReported(usage, this.options));
  }

  /** A chunk of one piece of text or thought, without a signature: learnt once, then repeated. */
  private piece(repeated: RepeatedTextEvent, text: string, thought: boolean): string {
    const written = repeated.withText(text);
    if (written !== undefined) return written;
    const chunk = this.chunk([thought ? { text, thought: true } : { text }]);
    repeated.learn(chunk, 'text', text);
    return chunk;
  }

  private chunk(parts: GeminiPart[]): string {
    return this.frame({ candidates: [{ content: { role: 'model', parts }, index: 0 }], ...this.envelope() });
  }

  private envelope(): Pick<GeminiResponse, 'modelVersion' | 'responseId'> {
    return { modelVersion: this.options.model, responseId: this.responseId };
  }

  private frame(response: GeminiResponse): string {
    return `data: ${JSON.stringify(response)}\r\n\r\n`;
  }

  private takeSignature(): { thoughtSignature?: string } {
    const signature = this.pendingSignature;
    this.pendingSignature = undefined;
    return signature === undefined ? {} : { thoughtSignature: signature };
  }

  private flushSignature(): string {
    if (this.pendingSignature === undefined) return '';
    return this.chunk([{ text: '', ...this.takeSignature() }]);
  }
}
