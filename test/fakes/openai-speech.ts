import {
  DEFAULT_AUDIO_BYTES,
  DEFAULT_AUDIO_CHUNK_BYTES,
  fakeSpeechAudio,
  SPEECH_CONTENT_TYPES,
  splitBytes,
  type SpeechFormat,
} from './fake-audio-bytes.js';
import type { FakeEndpoint } from './fake-endpoint.js';
import { asRecord, isRecord, sseEvent, type RequestProblem } from './fake-upstream.js';
import {
  checkEnum,
  checkKnownMembers,
  checkMaxLength,
  checkNumber,
  checkString,
  invalidType,
  invalidValue,
} from './openai-request-problems.js';

/** `SpeechCreateParams` in openai/resources/audio/speech.d.ts. */
const MEMBERS = new Set([
  'model',
  'input',
  'voice',
  'instructions',
  'response_format',
  'speed',
  'stream_format',
]);
const VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'onyx',
  'nova',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
];
const FORMATS = Object.keys(SPEECH_CONTENT_TYPES) as SpeechFormat[];

/**
 * `POST /v1/audio/speech` (https://platform.openai.com/docs/api-reference/audio/createSpeech):
 * the audio as `fakeSpeechAudio(format, audioBytes)`, in chunks of `audioChunkBytes` with
 * `chunkDelayMs` between them, under the format's content type; with `stream_format: "sse"`, one
 * `speech.audio.delta` per chunk and a `speech.audio.done` with the token usage.
 */
export const openaiSpeech: FakeEndpoint = {
  validate(body) {
    if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
    return (
      checkKnownMembers(body, MEMBERS) ??
      checkString(body.model, 'model') ??
      checkString(body.input, 'input') ??
      checkMaxLength(body.input as string, 'input', 4096) ??
      checkVoice(body.voice) ??
      checkString(body.instructions, 'instructions', { optional: true }) ??
      checkEnum(body.response_format, 'response_format', FORMATS) ??
      checkNumber(body.speed, 'speed', { min: 0.25, max: 4 }) ??
      checkEnum(body.stream_format, 'stream_format', ['audio', 'sse']) ??
      checkStreamFormat(body)
    );
  },
  reply(request, content) {
    const body = asRecord(request.body);
    const format = (body.response_format ?? 'mp3') as SpeechFormat;
    const audio = fakeSpeechAudio(format, content.audioBytes ?? DEFAULT_AUDIO_BYTES);
    const chunks = splitBytes(audio, content.audioChunkBytes ?? DEFAULT_AUDIO_CHUNK_BYTES);
    if (body.stream_format !== 'sse')
      return { kind: 'bytes', contentType: SPEECH_CONTENT_TYPES[format], chunks };
    const { inputTokens, outputTokens } = content.usage;
    const usage = {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    };
    return {
      kind: 'sse',
      events: [
        ...chunks.map((chunk) => sseEvent({ type: 'speech.audio.delta', audio: chunk.toString('base64') })),
        sseEvent({ type: 'speech.audio.done', ...(!content.omitUsage && { usage }) }),
      ],
    };
  },
};

/** A built-in voice's name, or a custom voice as `{ "id": "voice_1234" }`. */
function checkVoice(voice: unknown): RequestProblem | undefined {
  if (voice === undefined) return checkString(voice, 'voice');
  if (isRecord(voice)) return checkString(voice.id, 'voice.id');
  if (typeof voice !== 'string') return invalidType('voice', 'a string or an object', voice);
  return VOICES.includes(voice) ? undefined : invalidValue('voice', voice, VOICES);
}

/** "`sse` is not supported for `tts-1` or `tts-1-hd`." */
function checkStreamFormat(body: Record<string, unknown>): RequestProblem | undefined {
  if (body.stream_format !== 'sse' || !String(body.model).startsWith('tts-1')) return undefined;
  return {
    message: `stream_format 'sse' is not compatible with model '${String(body.model)}'. Use 'audio' instead.`,
    param: 'stream_format',
    code: 'unsupported_value',
  };
}
