import type { Usage } from '../../ir/usage.js';
import type { PassthroughCodec, StreamTap } from '../passthrough-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { AnthropicStreamUsage, convertAnthropicUsage } from './convert-anthropic-usage.js';
import { formatAnthropicStreamError } from './format-anthropic-stream-error.js';
import { asCount, asString, asWireObject, parseJson } from './read-wire.js';

/** Events that can carry usage or produced text; the tap parses no others. */
const TAPPED_EVENTS = new Set(['message_start', 'message_delta', 'content_block_delta']);

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

  prepareRequest: (body, { upstreamModel }) => ({
    body: { ...body, model: upstreamModel },
    hideUsageEvents: false,
  }),

  usageFromReply: (reply) => convertAnthropicUsage(asWireObject(reply)?.usage),

  createStreamTap: () => new AnthropicStreamTap(),

  streamErrorEvent: ({ message, code }) => formatAnthropicStreamError({ message, code }),
};

class AnthropicStreamTap implements StreamTap {
  private readonly reported = new AnthropicStreamUsage();
  private readonly produced: string[] = [];

  onEvent(event: SseEvent): boolean {
    if (event.event !== undefined && !TAPPED_EVENTS.has(event.event)) return true;
    const parsed = parseJson(event.data);
    const data = parsed.ok ? asWireObject(parsed.value) : undefined;
    switch (data?.type) {
      case 'message_start':
        this.reported.start(asWireObject(data.message)?.usage);
        break;
      case 'message_delta':
        this.reported.delta(data.usage);
        break;
      case 'content_block_delta': {
        const delta = asWireObject(data.delta);
        const text = asString(delta?.text) ?? asString(delta?.thinking) ?? asString(delta?.partial_json);
        if (text) this.produced.push(text);
        break;
      }
    }
    return true;
  }

  usage(): Usage | undefined {
    return this.reported.current();
  }

  producedText(): string {
    return this.produced.join('');
  }
}
