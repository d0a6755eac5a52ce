import { isJsonObject } from '../wire-json.js';
import type { Usage } from '../../ir/usage.js';
import type { PassthroughCodec, StreamTap } from '../passthrough-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { convertOpenAIChatUsage, count } from './convert-openai-chat-usage.js';

const DONE = '[DONE]';

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

  prepareRequest(body, { upstreamModel }) {
    const patched: Record<string, unknown> = { ...body, model: upstreamModel };
    if (body.stream !== true) return { body: patched, hideUsageEvents: false };
    const options = isJsonObject(body.stream_options) ? body.stream_options : {};
    if (options.include_usage === true) return { body: patched, hideUsageEvents: false };
    patched.stream_options = { ...options, include_usage: true };
    return { body: patched, hideUsageEvents: true };
  },

  usageFromReply: (reply) => (isJsonObject(reply) ? convertOpenAIChatUsage(reply.usage) : undefined),

  createStreamTap: (options) => new OpenAIChatStreamTap(options.hideUsageEvents),

  streamErrorEvent: ({ message, code }) =>
    `data: ${JSON.stringify({ error: { message, type: 'gateway_api_error', param: null, code } })}\n\n`,
};

class OpenAIChatStreamTap implements StreamTap {
  private reported: Usage | undefined;
  private readonly produced: string[] = [];

  constructor(private readonly hideUsageEvents: boolean) {}

  onEvent(event: SseEvent): boolean {
    if (event.data === DONE) return true;
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      return true;
    }
    if (!isJsonObject(chunk)) return true;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) this.collect(choice);
    if (isJsonObject(chunk.usage)) {
      this.reported = convertOpenAIChatUsage(chunk.usage) ?? this.reported;
      if (this.hideUsageEvents && choices.length === 0) return false;
    }
    return true;
  }

  usage(): Usage | undefined {
    return this.reported;
  }

  producedText(): string {
    return this.produced.join('');
  }

  private collect(choice: unknown): void {
    if (!isJsonObject(choice) || !isJsonObject(choice.delta)) return;
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
