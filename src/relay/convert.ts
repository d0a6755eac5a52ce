import type { LossLog } from '../ir/loss.js';
import type { StreamEvent } from '../ir/stream-event.js';
import type { Usage } from '../ir/usage.js';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.js';
import { SseEventReader } from '../protocols/sse/sse-event-reader.js';
import { parseJson } from '../protocols/wire-json.js';
import type { ReplyTransform, StreamTransform } from './transforms.js';

/** Upstream protocol to client protocol through the canonical form, for a complete reply. */
export function convertReply(options: {
  upstream: ProtocolCodec;
  client: ProtocolCodec;
  losses: LossLog;
  /** The model name the client asked for. */
  model: string;
}): ReplyTransform {
  return (upstreamBody) => {
    const parsed = parseJson(upstreamBody.toString('utf8'));
    const reply = options.upstream.decodeReply(parsed.ok ? parsed.value : undefined, options.losses);
    const body = options.client.encodeReply({ ...reply, model: options.model }, options.losses);
    return { body: JSON.stringify(body), usage: reply.usage };
  };
}

/**
 * Upstream stream to client stream through canonical events, event by event: upstream SSE ->
 * decoder state machine -> canonical events -> encoder state machine -> client SSE text.
 */
export function convertStream(options: {
  upstream: ProtocolCodec;
  client: ProtocolCodec;
  losses: LossLog;
  encoder: StreamEncoderOptions;
}): StreamTransform {
  const decoder = options.upstream.createStreamDecoder(options.losses);
  const encoder = options.client.createStreamEncoder(options.encoder);
  let reported: Usage | undefined;
  const produced: string[] = [];
  let out: string[] = [];
  const emit = (events: StreamEvent[]) => {
    for (const event of events) {
      if (event.type === 'usage') reported = event.usage;
      else if (event.type === 'finish' && event.usage) reported = event.usage;
      else if (event.type === 'text-delta' || event.type === 'reasoning-delta') produced.push(event.text);
      else if (event.type === 'tool-call-delta') produced.push(event.argumentsDelta);
      out.push(encoder.push(event));
    }
  };
  const reader = new SseEventReader((event) => emit(decoder.push(event)));
  const take = () => {
    const text = out.join('');
    out = [];
    return text.length > 0 ? text : undefined;
  };
  return {
    push(chunk) {
      reader.push(chunk);
      return take();
    },
    end() {
      reader.end();
      emit(decoder.end());
      out.push(encoder.end());
      return take();
    },
    usage: () => reported,
    producedText: () => produced.join(''),
    errorEvent({ message, code }) {
      emit([{ type: 'error', message, code }]);
      return take() ?? '';
    },
  };
}
