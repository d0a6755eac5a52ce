import type { FakeEndpoint } from './fake-endpoint.js';
import { asRecord, splitIntoDeltas, sseEvent, type FakeUsage, type RequestProblem } from './fake-upstream.js';
import { checkAudioForm, checkFormBoolean, checkFormNumber } from './openai-audio-form.js';
import { checkEnum, checkString, invalidValue } from './openai-request-problems.js';
import {
  languageName,
  transcriptFile,
  transcriptSegments,
  transcriptWords,
  type TranscriptFile,
} from './openai-transcript-formats.js';

/** `TranscriptionCreateParamsBase` in openai/resources/audio/transcriptions.d.ts. */
const FIELDS = new Set([
  'file',
  'model',
  'language',
  'prompt',
  'response_format',
  'temperature',
  'timestamp_granularities[]',
  'include[]',
  'stream',
  'chunking_strategy',
  'known_speaker_names[]',
  'known_speaker_references[]',
]);

type Family = 'whisper' | 'gpt-4o' | 'diarize';

/**
 * Each family's formats: "For `gpt-4o-transcribe` and `gpt-4o-mini-transcribe`, the only supported
 * format is `json`" (the API also takes `text`: "Use 'json' or 'text' instead"); the diarizing
 * model adds `diarized_json`; whisper-1 takes every format but that one.
 */
const FORMATS: Record<Family, string[]> = {
  whisper: ['json', 'text', 'srt', 'verbose_json', 'vtt'],
  'gpt-4o': ['json', 'text'],
  diarize: ['json', 'text', 'diarized_json'],
};

function familyOf(model: string): Family | undefined {
  if (model.startsWith('whisper')) return 'whisper';
  if (model.includes('transcribe-diarize')) return 'diarize';
  if (model.includes('transcribe')) return 'gpt-4o';
  return undefined;
}

/**
 * `POST /v1/audio/transcriptions`: the transcript in the asked format. Token usage for the gpt-4o
 * models (`inputTokens`, of which `inputAudioTokens` audio), `{type: "duration", seconds}` for
 * whisper-1 (`audioSeconds`); `omitUsage` leaves it out. With `stream=true`, `transcript.text.delta`
 * events and a `transcript.text.done` carrying the usage (whisper-1 refuses to stream).
 */
export const openaiTranscriptions: FakeEndpoint = {
  validate(body, request) {
    const problem = checkAudioForm(request, FIELDS);
    if (problem) return problem;
    const form = asRecord(body);
    const model = String(form.model);
    const family = familyOf(model);
    if (!family)
      return {
        message: `Model '${model}' is not a transcription model.`,
        param: 'model',
        code: 'invalid_value',
      };
    return (
      checkString(form.language, 'language', { optional: true }) ??
      checkEnum(form.response_format, 'response_format', [...FORMATS.whisper, 'diarized_json']) ??
      checkModelFormat(form.response_format, model, FORMATS[family]) ??
      checkFormNumber(form.temperature, 'temperature', { min: 0, max: 1 }) ??
      checkEach(form['timestamp_granularities[]'], 'timestamp_granularities', ['word', 'segment']) ??
      checkEach(form['include[]'], 'include', ['logprobs']) ??
      checkFormBoolean(form.stream, 'stream') ??
      checkChunking(form) ??
      (form.stream === 'true' && family === 'whisper'
        ? {
            message: `Streaming is not supported for model '${model}'.`,
            param: 'stream',
            code: 'unsupported_value',
          }
        : undefined)
    );
  },
  reply(request, content) {
    const form = asRecord(request.body);
    const family = familyOf(String(form.model)) ?? 'gpt-4o';
    const format = typeof form.response_format === 'string' ? form.response_format : 'json';
    const seconds = content.usage.audioSeconds ?? 0;
    const usage = content.omitUsage
      ? undefined
      : family === 'whisper'
        ? { type: 'duration', seconds }
        : transcriptionTokens(content.usage);
    const logprobs = [form['include[]']].flat().includes('logprobs') ? textLogprobs(content.text) : undefined;
    if (form.stream === 'true')
      return { kind: 'sse', events: streamEvents({ text: content.text, family, seconds, usage, logprobs }) };
    if (format === 'text' || format === 'srt' || format === 'vtt')
      return {
        kind: 'bytes',
        contentType: 'text/plain; charset=utf-8',
        chunks: [transcriptFile(format as TranscriptFile, content.text, seconds)],
      };
    if (format === 'verbose_json') {
      const granularities = [form['timestamp_granularities[]'] ?? 'segment'].flat();
      return {
        kind: 'json',
        body: {
          task: 'transcribe',
          language: languageName(form.language),
          duration: seconds,
          text: content.text,
          ...(granularities.includes('word') && { words: transcriptWords(content.text, seconds) }),
          ...(granularities.includes('segment') && { segments: transcriptSegments(content.text, seconds) }),
          ...(usage && { usage }),
        },
      };
    }
    if (format === 'diarized_json')
      return {
        kind: 'json',
        body: {
          task: 'transcribe',
          duration: seconds,
          text: content.text,
          segments: diarizedSegments(content.text, seconds),
          ...(usage && { usage }),
        },
      };
    return {
      kind: 'json',
      body: { text: content.text, ...(logprobs && { logprobs }), ...(usage && { usage }) },
    };
  },
};

/** `Transcription.Tokens`: `inputAudioTokens` of the input are audio, the rest the prompt's text. */
function transcriptionTokens(usage: FakeUsage) {
  const audioTokens = usage.inputAudioTokens ?? 0;
  return {
    type: 'tokens',
    input_tokens: usage.inputTokens,
    input_token_details: { text_tokens: usage.inputTokens - audioTokens, audio_tokens: audioTokens },
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** "the supported formats are..." per model, in the API's words. */
function checkModelFormat(format: unknown, model: string, supported: string[]): RequestProblem | undefined {
  if (format === undefined || supported.includes(String(format))) return undefined;
  const choices = supported.map((item) => `'${item}'`);
  const last = choices.pop();
  return {
    message: `response_format '${String(format)}' is not compatible with model '${model}'. Use ${choices.join(', ')} or ${last} instead.`,
    param: 'response_format',
    code: 'unsupported_value',
  };
}

/** Every value of an array field (`include[]`) among the supported ones. */
function checkEach(values: unknown, param: string, supported: string[]): RequestProblem | undefined {
  const wrong = [values ?? []].flat().find((value) => !supported.includes(String(value)));
  return wrong === undefined ? undefined : invalidValue(param, wrong, supported);
}

/** `"auto"` or a `server_vad` object, sent as JSON or as `chunking_strategy[type]` and its siblings. */
function checkChunking(form: Record<string, unknown>): RequestProblem | undefined {
  const bracketed = form['chunking_strategy[type]'];
  if (bracketed !== undefined) return checkEnum(bracketed, 'chunking_strategy.type', ['server_vad']);
  const value = form.chunking_strategy;
  if (value === undefined || value === 'auto') return undefined;
  try {
    if (asRecord(JSON.parse(String(value))).type === 'server_vad') return undefined;
  } catch {
    // Neither "auto" nor JSON: refused below like any other wrong value.
  }
  return invalidValue('chunking_strategy', value, ['auto', 'server_vad']);
}

function textLogprobs(text: string) {
  return splitIntoDeltas(text).map((token) => ({
    token,
    logprob: -0.01,
    bytes: [...Buffer.from(token)],
  }));
}

/** `TranscriptionDiarizedSegment`s: the fakes' one speaker, `A`. */
function diarizedSegments(text: string, seconds: number) {
  return [{ type: 'transcript.text.segment', id: 'seg_001', start: 0, end: seconds, speaker: 'A', text }];
}

/** `TranscriptionStreamEvent`s: a delta per word (the diarizing model adds its segment), then done. */
function streamEvents(options: {
  text: string;
  family: Family;
  seconds: number;
  usage: unknown;
  logprobs: ReturnType<typeof textLogprobs> | undefined;
}): string[] {
  const { text, family, seconds, usage, logprobs } = options;
  const deltas = splitIntoDeltas(text).map((delta, index) =>
    sseEvent({
      type: 'transcript.text.delta',
      delta,
      ...(logprobs && { logprobs: logprobs.slice(index, index + 1) }),
      ...(family === 'diarize' && { segment_id: 'seg_001' }),
    }),
  );
  const segments =
    family === 'diarize' ? diarizedSegments(text, seconds).map((segment) => sseEvent(segment)) : [];
  const done = sseEvent({
    type: 'transcript.text.done',
    text,
    ...(logprobs && { logprobs }),
    ...(usage !== undefined && { usage }),
  });
  return [...deltas, ...segments, done];
}
