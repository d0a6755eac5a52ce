import { emptyUsage, type Usage } from '../../ir/usage.js';
import type { StreamTransform } from '../../relay/transforms.js';
import { SseEventReader } from '../sse/sse-event-reader.js';
import { parseJson } from '../wire-json.js';

/**
 * A speech reply on its way to the client, unchanged: audio bytes, or with `stream_format: "sse"`
 * the `speech.audio.delta` events, whose last, `speech.audio.done`, carries the token usage
 * (https://platform.openai.com/docs/api-reference/audio/speech-audio-done-event). Without reported
 * usage the request is billed by the characters of its input (admin-api section 14), which the
 * client was charged for as soon as the upstream began to speak, whether it stayed to the end or not.
 */
export function speechStream(options: { characters: number; sse: boolean }): StreamTransform {
  let started = false;
  let reported: Usage | undefined;
  const events =
    options.sse &&
    new SseEventReader((event) => {
      if (!event.data.includes('speech.audio.done')) return;
      const parsed = parseJson(event.data);
      if (parsed.ok) reported = speechUsage(parsed.value);
    });
  return {
    push(chunk) {
      started = true;
      if (events) events.push(chunk);
      return chunk;
    },
    end: () => undefined,
    failure: () => undefined,
    usage: () =>
      reported ?? {
        ...emptyUsage(),
        // The text's tokens, counted by the gateway, at the input price; the audio is not counted.
        outputTokens: 0,
        characters: options.characters,
      },
    producedText: () => '',
    hasContent: () => started,
    // Audio has no place for an error: the reply just ends.
    errorEvent: () => '',
  };
}

function speechUsage(event: unknown): Usage | undefined {
  const usage = (event as { type?: unknown; usage?: unknown } | null)?.usage as
    { input_tokens?: unknown; output_tokens?: unknown } | undefined;
  const input = usage?.input_tokens;
  const output = usage?.output_tokens;
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  return {
    ...emptyUsage(),
    inputTokens: input,
    outputTokens: output,
    outputAudioTokens: output,
    raw: usage,
  };
}
