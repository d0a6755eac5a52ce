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
import { AnthropicStreamUsage, convertAnthropicUsage } from './convert-anthropic-usage.js';
import { formatAnthropicStreamError } from './format-anthropic-stream-error.js';
import { asCount, asString, asJsonObject, parseJson, type JsonObject } from '../wire-json.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';
import { PIECE_MEMBERS } from './piece-delta.js';

/**
 * Messages to an Anthropic upstream. Streams always report usage (input in `message_start`,
 * cumulative totals in `message_delta`), so nothing is patched but the model
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming).
 */
export const anthropicMessagesPassthrough: PassthroughCodec = {
  upstreamEndpoint: 'anthropic-messages',
  forwardedHeaders: ['anthropic-version', 'anthropic-beta'],
  wantsUsageEvents: () => true,

  isStream: (body) => body.stream === true,

  outputCap: (body) => asCount(body.max_tokens),

  // https://docs.anthropic.com/en/api/messages
  checkFlags(body) {
    checkBoolean(body.stream, 'stream');
    checkTokenCount(body.max_tokens, 'max_tokens');
  },

  prepareRequest: (body, { upstreamModel }) => ({
    body: withUpstreamModel(body, upstreamModel),
    hideUsageEvents: false,
  }),

  usageFromReply: (reply) => convertAnthropicUsage(reply.at(['usage'])),

  replyFacts(reply) {
    const message = asJsonObject(reply);
    const stopReason = asString(message?.stop_reason);
    return { model: asString(message?.model), finishReasons: stopReason ? [stopReason] : undefined };
  },

  createStreamTap: () => new AnthropicStreamTap(),
};

/** The members of a block's delta that carry produced text, in the order they are read. */
const PRODUCED_MEMBERS = Object.values(PIECE_MEMBERS);

/**
 * Every event is read once: for usage and produced text, and to check it is a JSON object. The
 * stream is whole once `message_stop` came; `error` is the upstream's own error
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events). A delta that
 * repeats the last one but for its text is read by its text alone (`RepeatedTextEvent`).
 */
class AnthropicStreamTap implements StreamTap {
  private readonly reported = new AnthropicStreamUsage();
  private readonly produced: string[] = [];
  private ended = false;
  private model: string | undefined;
  private stopReason: string | undefined;
  private readonly textDelta = new RepeatedTextEvent();

  onEvent(event: SseEvent): TapVerdict {
    const repeated = this.textDelta.textOf(event.data);
    if (repeated !== undefined) {
      if (repeated) this.produced.push(repeated);
      return FORWARD;
    }
    const parsed = parseJson(event.data);
    const data = parsed.ok ? asJsonObject(parsed.value) : undefined;
    if (!data) return { kind: 'invalid', detail: notJsonObjectDetail(event.data) };
    switch (asString(data.type) ?? event.event) {
      case 'message_start': {
        const message = asJsonObject(data.message);
        this.model = asString(message?.model);
        this.reported.start(message?.usage);
        break;
      }
      case 'message_delta':
        this.stopReason = asString(asJsonObject(data.delta)?.stop_reason) ?? this.stopReason;
        this.reported.delta(data.usage);
        break;
      case 'content_block_delta':
        this.readDelta(event.data, data);
        break;
      case 'message_stop':
        this.ended = true;
        break;
      case 'error':
        return {
          kind: 'upstream-error',
          message: asString(asJsonObject(data.error)?.message) ?? 'upstream stream error',
        };
    }
    return FORWARD;
  }

  missingEnd(): string | undefined {
    return this.ended ? undefined : missingLastEventDetail('message_stop');
  }

  usage(): Usage | undefined {
    return this.reported.current();
  }

  producedText(): string {
    return this.produced.join('');
  }

  facts(): ReplyFacts {
    return { model: this.model, finishReasons: this.stopReason ? [this.stopReason] : undefined };
  }

  errorEvent(error: StreamEndingError): string {
    return formatAnthropicStreamError(error);
  }

  /**
   * Keeps the delta's text, and learns the event when its type is its own (not the SSE event name):
   * an event equal to it but for that text then reads as that text.
   */
  private readDelta(source: string, data: JsonObject): void {
    const delta = asJsonObject(data.delta);
    const member = PRODUCED_MEMBERS.find((name) => typeof delta?.[name] === 'string');
    const text = member === undefined ? undefined : (delta![member] as string);
    if (text) this.produced.push(text);
    if (member !== undefined && data.type === 'content_block_delta')
      this.textDelta.learn(source, member, text!);
  }
}
