import type { Usage } from '../../ir/usage.js';
import type { PassthroughCodec, StreamTap } from '../passthrough-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { convertGeminiUsage, countGeminiWebSearches } from './convert-gemini-usage.js';
import { formatGeminiStreamError } from './stream-error-event.js';
import { asCount, isWireObject, parseJson } from './wire-values.js';

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
    isWireObject(body.generationConfig) ? asCount(body.generationConfig.maxOutputTokens) : undefined,

  prepareRequest: (body) => ({ body, hideUsageEvents: false }),

  usageFromReply: (reply) => (isWireObject(reply) ? readUsage(reply) : undefined),

  createStreamTap: () => new GeminiStreamTap(),

  streamErrorEvent: ({ message, code }) => formatGeminiStreamError({ message, code }),
};

/** Usage of one response, web searches of its first candidate included. */
function readUsage(response: Record<string, unknown>): Usage | undefined {
  const usage = convertGeminiUsage(response.usageMetadata);
  const candidate = Array.isArray(response.candidates) ? response.candidates[0] : undefined;
  return usage && { ...usage, webSearchCalls: countGeminiWebSearches(candidate) };
}

/**
 * Every chunk repeats the usage so far, cumulatively, so the last one seen is the answer. Produced
 * text is every part's text (thoughts included) and every function call's arguments.
 */
class GeminiStreamTap implements StreamTap {
  private reported: Usage | undefined;
  private webSearchCalls = 0;
  private readonly produced: string[] = [];

  onEvent(event: SseEvent): boolean {
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isWireObject(parsed.value)) return true;
    const chunk = parsed.value;
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    this.collect(candidate);
    this.webSearchCalls = Math.max(this.webSearchCalls, countGeminiWebSearches(candidate));
    this.reported = convertGeminiUsage(chunk.usageMetadata) ?? this.reported;
    return true;
  }

  usage(): Usage | undefined {
    return this.reported && { ...this.reported, webSearchCalls: this.webSearchCalls };
  }

  producedText(): string {
    return this.produced.join('');
  }

  private collect(candidate: unknown): void {
    if (!isWireObject(candidate) || !isWireObject(candidate.content)) return;
    const { parts } = candidate.content;
    if (!Array.isArray(parts)) return;
    for (const part of parts) {
      if (!isWireObject(part)) continue;
      if (typeof part.text === 'string') this.produced.push(part.text);
      if (isWireObject(part.functionCall) && part.functionCall.args !== undefined)
        this.produced.push(JSON.stringify(part.functionCall.args));
    }
  }
}
