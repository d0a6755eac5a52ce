import { emptyUsage, type Usage } from '../../ir/usage.js';
import type { StreamTransform } from '../../relay/transforms.js';
import { SseEventReader, type SseEvent } from '../sse/sse-event-reader.js';
import { parseJson } from '../wire-json.js';

/**
 * How a speech reply reaches the client: `audio` and `sse` as the upstream sent them; `sse-to-audio`
 * is the upstream's SSE (asked for by the gateway, for its usage) turned back into the audio bytes
 * the client asked for, each `speech.audio.delta` decoded as it arrives.
 */
export type SpeechRelayMode = 'audio' | 'sse' | 'sse-to-audio';

/**
 * A speech reply on its way to the client. With SSE the last event, `speech.audio.done`, carries
 * the token usage (https://platform.openai.com/docs/api-reference/audio/speech-audio-done-event).
 * Without reported usage the request is billed by the characters of its input (admin-api section
 * 14), charged as soon as the upstream began to speak, whether the client stayed to the end or not.
 */
export function speechStream(options: { characters: number; mode: SpeechRelayMode }): StreamTransform {
  let started = false;
  let reported: Usage | undefined;
  let decoded: Buffer[] = [];
  const onEvent = (event: SseEvent) => {
    if (options.mode === 'sse-to-audio' && event.data.includes('speech.audio.delta')) {
      const audio = deltaAudio(event.data);
      if (audio) decoded.push(audio);
    } else if (event.data.includes('speech.audio.done')) {
      const parsed = parseJson(event.data);
      if (parsed.ok) reported = speechUsage(parsed.value);
    }
  };
  const events = options.mode === 'audio' ? undefined : new SseEventReader(onEvent);
  return {
    push(chunk) {
      started = true;
      if (!events) return chunk;
      events.push(chunk);
      if (options.mode === 'sse') return chunk;
      const out = decoded.length === 1 ? decoded[0] : Buffer.concat(decoded);
      decoded = [];
      return out!.length > 0 ? out : undefined;
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

function deltaAudio(data: string): Buffer | undefined {
  const parsed = parseJson(data);
  const audio = parsed.ok ? (parsed.value as { type?: unknown; audio?: unknown } | null) : undefined;
  if (audio?.type !== 'speech.audio.delta' || typeof audio.audio !== 'string') return undefined;
  return Buffer.from(audio.audio, 'base64');
}

function speechUsage(event: unknown): Usage | undefined {
  const usage = (event as { usage?: unknown } | null)?.usage as
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
