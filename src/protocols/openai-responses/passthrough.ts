import type { ReplyFacts } from '../../ir/reply-facts.js';
import type { Usage } from '../../ir/usage.js';
import {
  FORWARD,
  type PassthroughCodec,
  type StreamEndingError,
  type StreamTap,
  type TapVerdict,
  withUpstreamModel,
} from '../passthrough-codec.js';
import { checkBoolean, checkTokenCount } from '../request-flags.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { missingLastEventDetail, notJsonObjectDetail } from '../sse/stream-break.js';
import { isJsonObject, parseJson, asCount } from '../wire-json.js';
import { convertOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import { OPENAI_OBFUSCATION, RepeatedTextEvent } from '../repeated-text-event.js';
import { SEQUENCE_NUMBER } from './wire-schemas.js';

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

  outputCap: (body) => asCount(body.max_output_tokens),

  // https://platform.openai.com/docs/api-reference/responses/create
  checkFlags(body) {
    checkBoolean(body.stream, 'stream');
    checkTokenCount(body.max_output_tokens, 'max_output_tokens');
  },

  prepareRequest: (body, { upstreamModel }) => ({
    body: withUpstreamModel(body, upstreamModel),
    hideUsageEvents: false,
  }),

  usageFromReply: (reply) => convertOpenAIResponsesUsage(reply.at(['usage'])),

  replyFacts: (reply) => (isJsonObject(reply) ? responseFacts(reply) : undefined),

  createStreamTap: () => new OpenAIResponsesStreamTap(),
};

/** A response's model, and why it ended: the incomplete reason, else its status (`completed`, `failed`). */
function responseFacts(response: Record<string, unknown>): ReplyFacts {
  const incomplete = isJsonObject(response.incomplete_details)
    ? response.incomplete_details.reason
    : undefined;
  const reason = typeof incomplete === 'string' ? incomplete : response.status;
  return {
    model: typeof response.model === 'string' ? response.model : undefined,
    finishReasons: typeof reason === 'string' ? [reason] : undefined,
  };
}

/**
 * Every event is read once: for usage (on the terminal event) and produced text, and to check it
 * is a JSON object. The stream is whole once a terminal event came; `error` and `response.failed`
 * are the upstream's own errors. A delta event that repeats the last one but for its delta, its
 * `sequence_number` and its `obfuscation` padding is read by its delta alone (`RepeatedTextEvent`);
 * its number is read only if an error event of the gateway's must follow it.
 */
class OpenAIResponsesStreamTap implements StreamTap {
  private reported: Usage | undefined;
  private readonly produced: string[] = [];
  private ended = false;
  private lastSequence = -1;
  /** The last event read by its delta alone, when no event with a number was parsed after it: its number, if any, is the last. */
  private lastRepeated: string | undefined;
  private terminal: ReplyFacts | undefined;
  private readonly textDelta = new RepeatedTextEvent([SEQUENCE_NUMBER, OPENAI_OBFUSCATION]);

  onEvent(event: SseEvent): TapVerdict {
    const repeated = this.textDelta.textOf(event.data);
    if (repeated !== undefined) {
      this.produced.push(repeated);
      this.lastRepeated = event.data;
      return FORWARD;
    }
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isJsonObject(parsed.value))
      return { kind: 'invalid', detail: notJsonObjectDetail(event.data) };
    const data = parsed.value;
    if (typeof data.sequence_number === 'number') {
      this.lastSequence = data.sequence_number;
      this.lastRepeated = undefined;
    }
    const type = typeof data.type === 'string' ? data.type : event.event;
    if (type === undefined) return FORWARD;
    if (TEXT_DELTA_EVENTS.has(type)) {
      if (typeof data.delta !== 'string') return FORWARD;
      this.produced.push(data.delta);
      // Typed by its own member: the next data that matches it is of its type whatever its SSE name.
      if (type === data.type) this.textDelta.learn(event.data, 'delta', data.delta);
      return FORWARD;
    }
    if (type === 'error') return { kind: 'upstream-error', message: errorMessage(data) };
    if (!TERMINAL_EVENTS.has(type)) return FORWARD;
    this.ended = true;
    const response = isJsonObject(data.response) ? data.response : {};
    this.terminal = responseFacts(response);
    this.reported = convertOpenAIResponsesUsage(response.usage) ?? this.reported;
    if (type === 'response.failed') return { kind: 'upstream-error', message: errorMessage(response.error) };
    return FORWARD;
  }

  missingEnd(): string | undefined {
    return this.ended
      ? undefined
      : missingLastEventDetail('response.completed, response.incomplete or response.failed');
  }

  usage(): Usage | undefined {
    return this.reported;
  }

  producedText(): string {
    return this.produced.join('');
  }

  facts(): ReplyFacts | undefined {
    return this.terminal;
  }

  /** Numbered after the last event the client got, as every event of a Responses stream is. */
  errorEvent({ message, code }: StreamEndingError): string {
    const repeated = this.lastRepeated === undefined ? undefined : sequenceOf(this.lastRepeated);
    const sequence = repeated ?? this.lastSequence;
    const event = { type: 'error', code, message, param: null, sequence_number: sequence + 1 };
    return `event: error\ndata: ${JSON.stringify(event)}\n\n`;
  }
}

/** The `sequence_number` of an event read by its delta alone, if it has one. */
function sequenceOf(data: string): number | undefined {
  const parsed = parseJson(data);
  return parsed.ok && isJsonObject(parsed.value) && typeof parsed.value.sequence_number === 'number'
    ? parsed.value.sequence_number
    : undefined;
}

/** The message of an `error` event (or of the `error` inside one) or of a failed response's `error`. */
function errorMessage(error: unknown): string {
  if (!isJsonObject(error)) return 'the upstream response failed';
  if (typeof error.message === 'string') return error.message;
  return errorMessage(error.error);
}
