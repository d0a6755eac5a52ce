import type { Usage } from '../../ir/usage.js';
import { count } from './json-values.js';
import type { PassthroughCodec, StreamTap } from '../passthrough-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { convertOpenAIResponsesUsage } from './convert-openai-responses-usage.js';

/** Events whose `response` carries the final usage (https://platform.openai.com/docs/api-reference/responses-streaming). */
const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const TEXT_DELTA_EVENTS = new Set([
  'response.output_text.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.function_call_arguments.delta',
]);

/** Responses to an OpenAI upstream: streams always end with usage, so nothing is patched but the model. */
export const openAIResponsesPassthrough: PassthroughCodec = {
  upstreamEndpoint: 'openai-responses',
  forwardedHeaders: [],
  wantsUsageEvents: () => true,

  isStream: (body) => body.stream === true,

  outputCap: (body) => count(body.max_output_tokens),

  prepareRequest: (body, { upstreamModel }) => ({
    body: { ...body, model: upstreamModel },
    hideUsageEvents: false,
  }),

  usageFromReply: (reply) =>
    typeof reply === 'object' && reply !== null
      ? convertOpenAIResponsesUsage((reply as { usage?: unknown }).usage)
      : undefined,

  createStreamTap: () => new OpenAIResponsesStreamTap(),

  streamErrorEvent: ({ message, code }) =>
    `event: error\ndata: ${JSON.stringify({ type: 'error', code, message, param: null, sequence_number: 0 })}\n\n`,
};

class OpenAIResponsesStreamTap implements StreamTap {
  private reported: Usage | undefined;
  private readonly produced: string[] = [];

  onEvent(event: SseEvent): boolean {
    const type = event.event;
    if (type !== undefined && !TERMINAL_EVENTS.has(type) && !TEXT_DELTA_EVENTS.has(type)) return true;
    let data: { type?: unknown; delta?: unknown; response?: { usage?: unknown } };
    try {
      data = JSON.parse(event.data) as typeof data;
    } catch {
      return true;
    }
    const dataType = typeof data.type === 'string' ? data.type : type;
    if (dataType && TEXT_DELTA_EVENTS.has(dataType) && typeof data.delta === 'string')
      this.produced.push(data.delta);
    if (dataType && TERMINAL_EVENTS.has(dataType)) {
      this.reported = convertOpenAIResponsesUsage(data.response?.usage) ?? this.reported;
    }
    return true;
  }

  usage(): Usage | undefined {
    return this.reported;
  }

  producedText(): string {
    return this.produced.join('');
  }
}
