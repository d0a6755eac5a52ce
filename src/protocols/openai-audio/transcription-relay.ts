import type { JsonDocument } from '../json-document.js';
import type { ReplyTransform, StreamTransform } from '../../relay/transforms.js';
import { SseEventReader, type SseEvent } from '../sse/sse-event-reader.js';
import { isJsonObject, parseJson } from '../wire-json.js';
import { transcriptionUsage, type TranscriptionBasis } from './transcription-usage.js';

/**
 * A transcription or translation answered whole, passed on as it came: JSON (`json`,
 * `verbose_json`, `diarized_json`) or text (`text`, `srt`, `vtt`). The usage is read from JSON;
 * the transcript's text is what an unreported output count is estimated from.
 */
export function transcriptionReply(basis: TranscriptionBasis): ReplyTransform {
  return (upstreamBody: Buffer, reply: JsonDocument) => {
    const json = reply.value();
    const text = isJsonObject(json) ? json.text : undefined;
    return {
      body: upstreamBody,
      usage: transcriptionUsage(basis, reply.at(['usage'])),
      producedText: () =>
        json === undefined ? upstreamBody.toString('utf8') : typeof text === 'string' ? text : '',
    };
  };
}

/**
 * A transcription streamed (`stream=true`) as server-sent events, passed on as they come:
 * `transcript.text.delta` events, then `transcript.text.done` with the whole text and the usage
 * (https://platform.openai.com/docs/api-reference/audio/transcript-text-done-event).
 */
export function transcriptionStream(basis: TranscriptionBasis): StreamTransform {
  const deltas: string[] = [];
  let done: { text?: unknown; usage?: unknown } | undefined;
  let failure: string | undefined;
  const events = new SseEventReader((event: SseEvent) => {
    if (event.data.includes('transcript.text.delta')) {
      const parsed = parseJson(event.data);
      const delta = parsed.ok && isJsonObject(parsed.value) ? parsed.value.delta : undefined;
      if (typeof delta === 'string') deltas.push(delta);
    } else if (event.data.includes('transcript.text.done')) {
      const parsed = parseJson(event.data);
      if (parsed.ok && isJsonObject(parsed.value)) done = parsed.value;
    } else if (event.event === 'error' || event.data.includes('"error"')) {
      const parsed = parseJson(event.data);
      const error = parsed.ok && isJsonObject(parsed.value) ? parsed.value.error : undefined;
      failure =
        isJsonObject(error) && typeof error.message === 'string' ? error.message : 'upstream error event';
    }
  });
  return {
    push(chunk) {
      events.push(chunk);
      return chunk;
    },
    end: () => undefined,
    failure: () => (failure === undefined ? undefined : { kind: 'reported', message: failure }),
    usage: () => transcriptionUsage(basis, done?.usage),
    producedText: () => (typeof done?.text === 'string' ? done.text : deltas.join('')),
    errorEvent: ({ message, code }) =>
      `data: ${JSON.stringify({ type: 'error', error: { message, type: 'gateway_api_error', param: null, code } })}\n\n`,
  };
}
