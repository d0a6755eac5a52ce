import type { ReplyFacts } from '../../ir/reply-facts.js';
import type { Usage } from '../../ir/usage.js';
import {
  FORWARD,
  type PassthroughCodec,
  type StreamEndingError,
  type StreamTap,
  type TapVerdict,
} from '../passthrough-codec.js';
import { checkChoiceCount, checkObject, checkTokenCount } from '../request-flags.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { missingLastEventDetail, notJsonObjectDetail } from '../sse/stream-break.js';
import {
  convertGeminiChunkUsage,
  convertGeminiUsage,
  countGeminiWebSearches,
  countWebSearchQueries,
  GEMINI_GROWING_COUNTS,
} from './convert-gemini-usage.js';
import { formatGeminiStreamError } from './stream-error-event.js';
import { asCount, asString, isJsonObject, parseJson } from '../wire-json.js';
import { singleTextPart } from './single-text-part.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';

/**
 * generateContent to a Gemini upstream. The model is in the URL, so the body goes out untouched,
 * and streams always carry `usageMetadata`, so nothing is hidden. Streaming is chosen by the
 * method in the path (`:streamGenerateContent`), which the body cannot tell: `isStream` is always
 * false and the relay takes the flag from the route.
 */
export const geminiPassthrough: PassthroughCodec = {
  upstreamEndpoint: 'gemini-generate-content',
  forwardedHeaders: [],
  wantsUsageEvents: () => true,

  isStream: () => false,

  outputCap: (body) =>
    isJsonObject(body.generationConfig) ? asCount(body.generationConfig.maxOutputTokens) : undefined,

  choiceCount: (body) => {
    const count = isJsonObject(body.generationConfig) ? body.generationConfig.candidateCount : undefined;
    return typeof count === 'number' ? count : 1;
  },

  // https://ai.google.dev/api/generate-content#generationconfig
  checkFlags(body) {
    const config = checkObject(body.generationConfig, 'generationConfig');
    if (!config) return;
    checkTokenCount(config.maxOutputTokens, 'generationConfig.maxOutputTokens');
    checkChoiceCount(config.candidateCount, 'generationConfig.candidateCount');
  },

  prepareRequest: (body) => ({ body, hideUsageEvents: false }),

  usageFromReply(reply) {
    const usage = convertGeminiUsage(reply.at(['usageMetadata']));
    const queries = reply.at(['candidates', 0, 'groundingMetadata', 'webSearchQueries']);
    return usage && { ...usage, webSearchCalls: countWebSearchQueries(queries) };
  },

  replyFacts(reply) {
    if (!isJsonObject(reply)) return undefined;
    const candidates = Array.isArray(reply.candidates) ? reply.candidates : [];
    const finishReasons = candidates.flatMap((candidate) => {
      const reason = isJsonObject(candidate) ? asString(candidate.finishReason) : undefined;
      return reason ? [reason] : [];
    });
    return { model: asString(reply.modelVersion), finishReasons };
  },

  createStreamTap: () => new GeminiStreamTap(),
};

/**
 * Every chunk is parsed once: for usage and produced text, and to check it is a JSON object. Every
 * chunk repeats the usage so far, cumulatively, so the last one seen is the answer; produced text
 * is every part's text (thoughts included) and every function call's arguments. The stream is
 * whole once a candidate has a `finishReason` (or the prompt was blocked); `{"error": {...}}` is
 * the upstream's own error. A chunk that repeats the last one of a single text part but for its
 * text and its growing counts is read by its text alone (`RepeatedTextEvent`); its usage is read
 * only if no later chunk brings usage of its own.
 */
class GeminiStreamTap implements StreamTap {
  private reported: Usage | undefined;
  /** The last chunk read by its text alone, when no chunk was parsed after it: its usage is the latest. */
  private lastRepeated: string | undefined;
  private webSearchCalls = 0;
  private readonly produced: string[] = [];
  private ended = false;
  private model: string | undefined;
  private finishReason: string | undefined;
  private readonly textPart = new RepeatedTextEvent(GEMINI_GROWING_COUNTS);

  onEvent(event: SseEvent): TapVerdict {
    const repeated = this.textPart.textOf(event.data);
    if (repeated !== undefined) {
      this.produced.push(repeated);
      this.lastRepeated = event.data;
      return FORWARD;
    }
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isJsonObject(parsed.value))
      return { kind: 'invalid', detail: notJsonObjectDetail(event.data) };
    const chunk = parsed.value;
    if (isJsonObject(chunk.error))
      return { kind: 'upstream-error', message: asString(chunk.error.message) ?? 'upstream stream error' };
    this.model ??= asString(chunk.modelVersion);
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    this.collect(candidate);
    const finishReason = isJsonObject(candidate) ? asString(candidate.finishReason) : undefined;
    if (finishReason !== undefined) {
      this.ended = true;
      this.finishReason = finishReason;
    }
    if (isJsonObject(chunk.promptFeedback) && asString(chunk.promptFeedback.blockReason) !== undefined)
      this.ended = true;
    this.webSearchCalls = Math.max(this.webSearchCalls, countGeminiWebSearches(candidate));
    this.reported = convertGeminiUsage(chunk.usageMetadata) ?? this.repeatedUsage() ?? this.reported;
    this.lastRepeated = undefined;
    const part = singleTextPart(chunk);
    if (part !== undefined) this.textPart.learn(event.data, 'text', part.text);
    return FORWARD;
  }

  missingEnd(): string | undefined {
    return this.ended ? undefined : missingLastEventDetail('a candidate with a finishReason');
  }

  usage(): Usage | undefined {
    const reported = this.repeatedUsage() ?? this.reported;
    return reported && { ...reported, webSearchCalls: this.webSearchCalls };
  }

  producedText(): string {
    return this.produced.join('');
  }

  facts(): ReplyFacts {
    return { model: this.model, finishReasons: this.finishReason ? [this.finishReason] : undefined };
  }

  errorEvent(error: StreamEndingError): string {
    return formatGeminiStreamError(error);
  }

  /** The usage of the last chunk read by its text alone, if one was and it has usage. */
  private repeatedUsage(): Usage | undefined {
    return this.lastRepeated === undefined ? undefined : convertGeminiChunkUsage(this.lastRepeated);
  }

  private collect(candidate: unknown): void {
    if (!isJsonObject(candidate) || !isJsonObject(candidate.content)) return;
    const { parts } = candidate.content;
    if (!Array.isArray(parts)) return;
    for (const part of parts) {
      if (!isJsonObject(part)) continue;
      if (typeof part.text === 'string') this.produced.push(part.text);
      if (isJsonObject(part.functionCall) && part.functionCall.args !== undefined)
        this.produced.push(JSON.stringify(part.functionCall.args));
    }
  }
}
