import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';
import { FinishReasons, type ReplyFacts } from '../../ir/reply-facts.js';
import type { Usage } from '../../ir/usage.js';
import {
  FORWARD,
  HIDE,
  type PassthroughCodec,
  type StreamEndingError,
  type StreamTap,
  type TapVerdict,
  withUpstreamModel,
} from '../passthrough-codec.js';
import { checkBoolean, checkChoiceCount, checkObject, checkTokenCount } from '../request-flags.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { missingLastEventDetail, notJsonObjectDetail } from '../sse/stream-break.js';
import { convertOpenAIChatUsage, count } from './convert-openai-chat-usage.js';
import { OPENAI_OBFUSCATION, RepeatedTextEvent } from '../repeated-text-event.js';

const DONE = '[DONE]';
/** The most choices (`n`) one chat completion may ask for. */
const MAX_CHOICES = 128;

/**
 * Chat completions to an OpenAI-compatible upstream. Streams ask for usage with
 * `stream_options.include_usage` (https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options);
 * when the client did not ask for it, the usage-only chunk is kept from the client.
 */
export const openAIChatPassthrough: PassthroughCodec = {
  upstreamEndpoint: 'openai-chat',
  forwardedHeaders: [],
  wantsUsageEvents: (body) => isJsonObject(body.stream_options) && body.stream_options.include_usage === true,

  isStream: (body) => body.stream === true,

  outputCap: (body) => count(body.max_completion_tokens) ?? count(body.max_tokens),

  choiceCount: (body) => (typeof body.n === 'number' ? body.n : 1),

  // https://platform.openai.com/docs/api-reference/chat/create
  checkFlags(body) {
    checkBoolean(body.stream, 'stream');
    const options = checkObject(body.stream_options, 'stream_options');
    if (options) checkBoolean(options.include_usage, 'stream_options.include_usage');
    checkChoiceCount(body.n, 'n', MAX_CHOICES);
    checkTokenCount(body.max_completion_tokens, 'max_completion_tokens');
    checkTokenCount(body.max_tokens, 'max_tokens');
  },

  prepareRequest(body, { upstreamModel }) {
    const named = withUpstreamModel(body, upstreamModel);
    if (body.stream !== true) return { body: named, hideUsageEvents: false };
    const options = isJsonObject(body.stream_options) ? body.stream_options : {};
    if (options.include_usage === true) return { body: named, hideUsageEvents: false };
    // No member added after a spread, nor assigned after one: V8 takes a slow path (see `authenticate`).
    const { stream_options: _asked, ...rest } = body;
    const patched = { stream_options: { ...options, include_usage: true }, ...rest, model: upstreamModel };
    return { body: patched, hideUsageEvents: true };
  },

  usageFromReply: (reply) => convertOpenAIChatUsage(reply.at(['usage'])),

  replyFacts(reply) {
    if (!isJsonObject(reply)) return undefined;
    const choices = Array.isArray(reply.choices) ? reply.choices : [];
    const finishReasons = choices.flatMap((choice) =>
      isJsonObject(choice) && typeof choice.finish_reason === 'string' ? [choice.finish_reason] : [],
    );
    return { model: typeof reply.model === 'string' ? reply.model : undefined, finishReasons };
  },

  createStreamTap: (options) => new OpenAIChatStreamTap(options.hideUsageEvents),
};

/**
 * Every chunk is read once: for usage and produced text, and to check it is a JSON object. The
 * stream is whole once `[DONE]` or a `finish_reason` came; a `{"error": {...}}` chunk is the
 * upstream's own error (https://platform.openai.com/docs/guides/error-codes). A chunk that repeats
 * the last plain content, reasoning or tool-call arguments delta but for its piece (and its
 * `obfuscation` padding) is read by that piece alone (`RepeatedTextEvent`).
 */
class OpenAIChatStreamTap implements StreamTap {
  private reported: Usage | undefined;
  private readonly produced: string[] = [];
  private ended = false;
  private model: string | undefined;
  private readonly finishes = new FinishReasons();
  private readonly pieceDelta = new RepeatedTextEvent([OPENAI_OBFUSCATION]);

  constructor(private readonly hideUsageEvents: boolean) {}

  onEvent(event: SseEvent): TapVerdict {
    if (event.data === DONE) {
      this.ended = true;
      return FORWARD;
    }
    const piece = this.pieceDelta.textOf(event.data);
    if (piece !== undefined) {
      this.produced.push(piece);
      return FORWARD;
    }
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isJsonObject(parsed.value)) {
      if (event.data.trim() !== DONE) return { kind: 'invalid', detail: notJsonObjectDetail(event.data) };
      this.ended = true;
      return FORWARD;
    }
    const chunk = parsed.value;
    if (chunk.error !== undefined && chunk.error !== null)
      return { kind: 'upstream-error', message: errorMessage(chunk.error) };
    if (this.model === undefined && typeof chunk.model === 'string') this.model = chunk.model;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const producedBefore = this.produced.length;
    for (const choice of choices) this.collect(choice);
    if (isJsonObject(chunk.usage)) {
      this.reported = convertOpenAIChatUsage(chunk.usage) ?? this.reported;
      if (this.hideUsageEvents && choices.length === 0) return HIDE;
    }
    const member = plainPieceMember(chunk, choices, this.produced.length - producedBefore);
    if (member !== undefined)
      this.pieceDelta.learn(event.data, member, this.produced[this.produced.length - 1]!);
    return FORWARD;
  }

  missingEnd(): string | undefined {
    return this.ended ? undefined : missingLastEventDetail('[DONE] or a finish_reason');
  }

  usage(): Usage | undefined {
    return this.reported;
  }

  producedText(): string {
    return this.produced.join('');
  }

  facts(): ReplyFacts {
    return { model: this.model, finishReasons: this.finishes.list() };
  }

  errorEvent({ message, code }: StreamEndingError): string {
    return `data: ${JSON.stringify({ error: { message, type: 'gateway_api_error', param: null, code } })}\n\n`;
  }

  private collect(choice: unknown): void {
    if (!isJsonObject(choice)) return;
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      this.ended = true;
      this.finishes.set(typeof choice.index === 'number' ? choice.index : 0, choice.finish_reason);
    }
    if (!isJsonObject(choice.delta)) return;
    const { delta } = choice;
    if (typeof delta.content === 'string') this.produced.push(delta.content);
    if (typeof delta.reasoning_content === 'string') this.produced.push(delta.reasoning_content);
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) {
        if (
          isJsonObject(call) &&
          isJsonObject(call.function) &&
          typeof call.function.arguments === 'string'
        ) {
          this.produced.push(call.function.arguments);
        }
      }
    }
  }
}

/**
 * The member holding the one piece a chunk says, when it says nothing else: one choice's content,
 * its `reasoning_content`, or one tool call's arguments; no usage (`null` aside, which OpenAI sends
 * in every chunk but the last when usage is asked for), no finish, no other text. Chunks equal to it but for that piece then
 * read the same but for the piece.
 */
function plainPieceMember(
  chunk: JsonObject,
  choices: unknown[],
  piecesProduced: number,
): 'content' | 'reasoning_content' | 'arguments' | undefined {
  if (piecesProduced !== 1 || (chunk.usage !== undefined && chunk.usage !== null)) return undefined;
  if (choices.length !== 1) return undefined;
  const choice = choices[0] as JsonObject;
  if (choice.finish_reason !== null && choice.finish_reason !== undefined) return undefined;
  const delta = choice.delta as JsonObject;
  if (typeof delta.content === 'string') return 'content';
  if (typeof delta.reasoning_content === 'string') return 'reasoning_content';
  // Otherwise the piece is the arguments of the one call that has them.
  return 'arguments';
}

function errorMessage(error: unknown): string {
  if (isJsonObject(error) && typeof error.message === 'string') return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}
