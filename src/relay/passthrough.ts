import type { PassthroughCodec } from '../protocols/passthrough-codec.js';
import { parseJson } from '../protocols/wire-json.js';
import { formatSseEvent, SseEventReader } from '../protocols/sse/sse-event-reader.js';
import type { ReplyTransform, StreamTransform } from './transforms.js';

/** Same protocol both sides: the reply's bytes go to the client untouched; usage is read on the side. */
export function passthroughReply(codec: PassthroughCodec): ReplyTransform {
  return (upstreamBody) => {
    const parsed = parseJson(upstreamBody.toString('utf8'));
    return { body: upstreamBody, usage: parsed.ok ? codec.usageFromReply(parsed.value) : undefined };
  };
}

/**
 * Same protocol both sides: upstream bytes are written as they arrive, while the codec's tap reads
 * usage. Only when the gateway asked for usage the client did not ask for are events re-framed,
 * so that the usage-only event can be kept from the client.
 */
export function passthroughStream(
  codec: PassthroughCodec,
  options: { hideUsageEvents: boolean },
): StreamTransform {
  const tap = codec.createStreamTap({ hideUsageEvents: options.hideUsageEvents });
  let visible: string[] = [];
  const reader = new SseEventReader((event) => {
    const shown = tap.onEvent(event);
    if (options.hideUsageEvents && shown) visible.push(formatSseEvent(event));
  });
  const takeVisible = () => {
    const out = visible.join('');
    visible = [];
    return out.length > 0 ? out : undefined;
  };
  return {
    push(chunk) {
      reader.push(chunk);
      return options.hideUsageEvents ? takeVisible() : chunk;
    },
    end() {
      reader.end();
      return options.hideUsageEvents ? takeVisible() : undefined;
    },
    usage: () => tap.usage(),
    producedText: () => tap.producedText(),
    errorEvent: (error) => codec.streamErrorEvent(error),
  };
}
