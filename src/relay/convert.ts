import type { LossLog } from '../ir/loss.js';
import { finishWithToolCalls } from '../ir/reply.js';
import type { StreamEvent } from '../ir/stream-event.js';
import type { Usage } from '../ir/usage.js';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.js';
import { SseEventReader } from '../protocols/sse/sse-event-reader.js';
import { CUT_MID_EVENT_DETAIL } from '../protocols/sse/stream-break.js';
import { producedTextOf } from './produced-text.js';
import type { ReplyTransform, StreamFailure, StreamTransform } from './transforms.js';

/** Upstream protocol to client protocol through the canonical form, for a complete reply. */
export function convertReply(options: {
  upstream: ProtocolCodec;
  client: ProtocolCodec;
  losses: LossLog;
  /** The model name the client asked for. */
  model: string;
}): ReplyTransform {
  return (_upstreamBody, upstreamReply) => {
    const decoded = options.upstream.decodeReply(upstreamReply.value(), options.losses);
    const reply = decoded.parts.some((part) => part.type === 'tool-call')
      ? { ...decoded, finishReason: finishWithToolCalls(decoded.finishReason) }
      : decoded;
    const body = options.client.encodeReply({ ...reply, model: options.model }, options.losses);
    return {
      body: JSON.stringify(body),
      usage: reply.usage,
      producedText: () => producedTextOf(reply.parts),
      facts: () => ({
        model: reply.model,
        finishReasons: [reply.finishReason.raw ?? reply.finishReason.unified],
      }),
    };
  };
}

/**
 * Upstream stream to client stream through canonical events, event by event: upstream SSE ->
 * decoder state machine -> canonical events -> encoder state machine -> client SSE text. The
 * upstream's own error event becomes the client family's error event and ends the stream; an
 * event the upstream protocol cannot read, or a close mid-frame, leaves the stream broken for the
 * relay to end.
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
  let failure: StreamFailure | undefined;
  let calledTools = false;
  let model: string | undefined;
  let finishReason: string | undefined;
  /** Until the first output went out: where it goes at once. */
  let sendFirst: ((out: string) => void) | undefined;
  let sentFirst = false;
  const emit = (events: StreamEvent[]) => {
    for (let event of events) {
      if (event.type === 'tool-call-start') calledTools = true;
      else if (event.type === 'finish' && calledTools)
        event = { ...event, finishReason: finishWithToolCalls(event.finishReason) };
      if (event.type === 'usage') reported = event.usage;
      else if (event.type === 'finish') {
        finishReason = event.finishReason.raw ?? event.finishReason.unified;
        if (event.usage) reported = event.usage;
      } else if (event.type === 'response-start') model = event.model;
      else if (event.type === 'text-delta' || event.type === 'reasoning-delta') produced.push(event.text);
      else if (event.type === 'tool-call-delta') produced.push(event.argumentsDelta);
      else if (event.type === 'error') failure ??= { kind: 'reported', message: event.message };
      out.push(encoder.push(event));
      if (sentFirst || !sendFirst) continue;
      const first = take();
      if (first === undefined) continue;
      sentFirst = true;
      sendFirst(first);
    }
  };
  const reader = new SseEventReader((event) => {
    if (failure) return;
    emit(decoder.push(event));
    const broken = decoder.broken();
    if (broken !== undefined) failure ??= { kind: 'broken', detail: broken };
  });
  const take = () => {
    const text = out.join('');
    out = [];
    return text.length > 0 ? text : undefined;
  };
  return {
    push(chunk, send) {
      sendFirst = send;
      if (!failure) reader.push(chunk);
      sendFirst = undefined;
      return take();
    },
    end() {
      if (failure) return take();
      if (reader.end().incomplete) {
        failure = { kind: 'broken', detail: CUT_MID_EVENT_DETAIL };
        return take();
      }
      emit(decoder.end());
      out.push(encoder.end());
      return take();
    },
    failure: () => failure,
    usage: () => reported,
    producedText: () => produced.join(''),
    facts: () => ({ model, finishReasons: finishReason === undefined ? undefined : [finishReason] }),
    errorEvent({ message, code, status }) {
      return encoder.push({ type: 'error', message, code, status });
    },
  };
}
