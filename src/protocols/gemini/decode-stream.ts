import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import {
  convertGeminiChunkUsage,
  convertGeminiUsage,
  countGeminiWebSearches,
  GEMINI_GROWING_COUNTS,
} from './convert-gemini-usage.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { readGeminiPart, type GeminiPartView, type GeminiSignature } from './read-gemini-part.js';
import { readResponseIdentity } from './response-identity.js';
import { ToolCallIds } from './tool-call-ids.js';
import { asCount, jsonEqual, parseJson } from '../wire-json.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';
import { singleTextPart } from './single-text-part.js';
import { geminiResponseSchema, type GeminiCandidateRead, type GeminiResponseRead } from './wire-schemas.js';

type OpenBlock = { kind: 'text' | 'reasoning'; index: number };

/**
 * `streamGenerateContent?alt=sse` (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent):
 * every event is a whole GenerateContentResponse holding the next parts of the first candidate.
 * Text and thought parts continue the open block of their kind; a thought signature closes the
 * thoughts it ends (on a text part it becomes a reasoning block of its own, as in replies); a
 * function call arrives whole and is a complete tool-call block, a generated image a `file` block. Usage is cumulative, so the
 * latest counts go with the finish; counts arriving after it follow as a trailing `usage`.
 * `{"error": {...}}` ends the stream with an `error`; an event that is not a JSON object breaks it.
 * A chunk that repeats the last one of a single text part but for its text and its growing counts
 * is read by its text alone (`RepeatedTextEvent`); its usage is read only if it is still the latest
 * at the finish.
 */
export class GeminiStreamDecoder implements StreamDecoder {
  private started = false;
  private finished = false;
  private errored = false;
  private chunks = 0;
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  private ids = new ToolCallIds();
  private usage: Usage | undefined;
  private reportedUsage: unknown;
  private webSearchCalls = 0;
  private sawToolCall = false;
  private brokenBy: string | undefined;
  private readonly textPart = new RepeatedTextEvent(GEMINI_GROWING_COUNTS);
  private learntThought = false;
  /** The last chunk read by its text alone, when no chunk with usage was parsed after it: its usage is the latest. */
  private lastRepeated: string | undefined;

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.errored) return [];
    const repeated = this.finished ? undefined : this.textPart.textOf(event.data);
    if (repeated !== undefined) {
      this.chunks++;
      this.lastRepeated = event.data;
      const out: StreamEvent[] = [];
      const view = {
        kind: 'text',
        text: repeated,
        thought: this.learntThought,
        signature: undefined,
      } as const;
      this.part(view, out, { path: '' });
      return out;
    }
    const path = `chunk[${this.chunks++}]`;
    const json = parseJson(event.data);
    const parsed = json.ok ? geminiResponseSchema.safeParse(json.value) : undefined;
    if (!parsed?.success) {
      this.errored = true;
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    const chunk = parsed.data;
    if (chunk.error) return this.fail(chunk.error);

    const out: StreamEvent[] = [];
    if (!this.started) this.start(chunk, out);
    const usage = convertGeminiUsage(chunk.usageMetadata);
    if (usage) {
      this.usage = usage;
      this.lastRepeated = undefined;
    }
    const candidates = chunk.candidates ?? [];
    for (const index of candidates.keys())
      if (index > 0) this.losses.dropped(`${path}.candidates[${index}]`, 'only the first candidate is kept');
    const candidate = candidates[0];
    this.webSearchCalls = Math.max(this.webSearchCalls, countGeminiWebSearches(candidate));

    if (this.finished) {
      if (partsOf(candidate).length > 0)
        this.losses.dropped(`${path}.candidates[0]`, 'content after the finish');
      if (usage && !jsonEqual(usage.raw, this.reportedUsage)) {
        this.reportedUsage = usage.raw;
        out.push({ type: 'usage', usage: this.currentUsage() ?? usage });
      }
      return out;
    }

    for (const [index, part] of partsOf(candidate).entries())
      this.part(readGeminiPart(part, `${path}.candidates[0].content.parts[${index}]`, this.losses), out, {
        path: `${path}.candidates[0].content.parts[${index}]`,
      });

    const finishReason = candidate?.finishReason;
    const blockReason = candidate === undefined ? chunk.promptFeedback?.blockReason : undefined;
    if (finishReason !== undefined)
      this.finish(mapGeminiFinishReason(finishReason, { hasToolCalls: this.sawToolCall }), out);
    else if (blockReason !== undefined) this.finish({ unified: 'content-filter', raw: blockReason }, out);
    const textPart = json.ok ? singleTextPart(json.value) : undefined;
    if (textPart !== undefined) {
      this.learntThought = textPart.thought;
      this.textPart.learn(event.data, 'text', textPart.text);
    }
    return out;
  }

  broken(): string | undefined {
    return this.brokenBy;
  }

  end(): StreamEvent[] {
    if (this.errored || this.finished) return [];
    const out: StreamEvent[] = [];
    if (!this.started) this.start({}, out);
    this.finish({ unified: 'other', raw: undefined }, out);
    return out;
  }

  private start(chunk: GeminiResponseRead, out: StreamEvent[]): void {
    const identity = readResponseIdentity(chunk);
    this.ids = new ToolCallIds({ responseId: identity.id });
    this.started = true;
    out.push({ type: 'response-start', ...identity });
  }

  private part(view: GeminiPartView, out: StreamEvent[], context: { path: string }): void {
    switch (view.kind) {
      case 'text':
        if (view.thought) this.thought(view, out);
        else this.text(view, out);
        return;
      case 'function-call': {
        this.close(out);
        const index = this.nextIndex++;
        this.sawToolCall = true;
        out.push(
          { type: 'tool-call-start', index, id: view.id ?? this.ids.create(), name: view.name },
          { type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(view.args) },
          {
            type: 'tool-call-end',
            index,
            ...(view.signature !== undefined && { signature: view.signature.token }),
          },
        );
        return;
      }
      case 'file':
        this.file(view, out, context);
        return;
      case 'function-response':
      case 'raw':
      case 'invalid':
        this.losses.dropped(context.path, 'a part stream events cannot carry');
        return;
      default: {
        const unhandled: never = view;
        return unhandled;
      }
    }
  }

  private thought(view: Extract<GeminiPartView, { kind: 'text' }>, out: StreamEvent[]): void {
    if (this.open?.kind !== 'reasoning') {
      this.close(out);
      this.open = { kind: 'reasoning', index: this.nextIndex++ };
      out.push({ type: 'reasoning-start', index: this.open.index });
    }
    const { index } = this.open;
    if (view.text !== '') out.push({ type: 'reasoning-delta', index, text: view.text });
    if (view.signature !== undefined) {
      out.push({ type: 'reasoning-end', index, signature: view.signature.token });
      this.open = undefined;
    }
  }

  private text(view: Extract<GeminiPartView, { kind: 'text' }>, out: StreamEvent[]): void {
    if (view.signature !== undefined) this.signatureBlock(view.signature, out);
    if (view.text === '') return;
    if (this.open?.kind !== 'text') {
      this.close(out);
      this.open = { kind: 'text', index: this.nextIndex++ };
      out.push({ type: 'text-start', index: this.open.index });
    }
    out.push({ type: 'text-delta', index: this.open.index, text: view.text });
  }

  /**
   * A generated image (https://ai.google.dev/gemini-api/docs/image-generation) arrives whole in one
   * part: a `file` block, after the reasoning block of its signature. A `thought` image is an
   * interim draft of a thinking image model: dropped, its signature closing the thoughts.
   */
  private file(
    view: Extract<GeminiPartView, { kind: 'file' }>,
    out: StreamEvent[],
    context: { path: string },
  ): void {
    if (view.thought) {
      this.losses.dropped(context.path, 'a thought image is an interim draft, not the answer');
      if (view.signature !== undefined)
        this.thought({ kind: 'text', text: '', thought: true, signature: view.signature }, out);
      return;
    }
    if (view.signature !== undefined) this.signatureBlock(view.signature, out);
    else this.close(out);
    out.push({ type: 'file', index: this.nextIndex++, file: view.file });
  }

  /** The signature of a text or file part, as a reasoning block of its own with no text, just before it. */
  private signatureBlock(signature: GeminiSignature, out: StreamEvent[]): void {
    this.close(out);
    const index = this.nextIndex++;
    out.push(
      { type: 'reasoning-start', index },
      { type: 'reasoning-end', index, signature: signature.token },
    );
  }

  private close(out: StreamEvent[]): void {
    if (!this.open) return;
    const { kind, index } = this.open;
    out.push(kind === 'text' ? { type: 'text-end', index } : { type: 'reasoning-end', index });
    this.open = undefined;
  }

  private finish(finishReason: FinishReason, out: StreamEvent[]): void {
    this.close(out);
    this.finished = true;
    const usage = this.currentUsage();
    this.reportedUsage = usage?.raw;
    out.push({ type: 'finish', finishReason, ...(usage && { usage }) });
  }

  /**
   * `{"error": {code, message, status}}`: `code` is the HTTP status the error stands for, `status`
   * Google's name for it (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes).
   */
  private fail(error: NonNullable<GeminiResponseRead['error']>): StreamEvent[] {
    this.errored = true;
    const httpStatus = asCount(error.code);
    const code = error.status ?? (httpStatus === undefined ? undefined : String(httpStatus));
    return [
      {
        type: 'error',
        message: error.message ?? 'the upstream stream reported an error',
        ...(code !== undefined && { code }),
        ...(httpStatus !== undefined && { status: httpStatus }),
      },
    ];
  }

  private currentUsage(): Usage | undefined {
    if (this.lastRepeated !== undefined) {
      this.usage = convertGeminiChunkUsage(this.lastRepeated) ?? this.usage;
      this.lastRepeated = undefined;
    }
    return this.usage && { ...this.usage, webSearchCalls: this.webSearchCalls };
  }
}

function partsOf(candidate: GeminiCandidateRead | undefined): unknown[] {
  return candidate?.content?.parts ?? [];
}
