import { emptyUsage, type Usage } from '../../ir/usage.js';
import { isJsonObject } from '../wire-json.js';

/**
 * Audio tokens per second of input, where the upstream reports none: OpenAI's transcription
 * models are priced at about $0.006 a minute for $6 per 1M audio tokens, so 1,000 a minute.
 */
const AUDIO_TOKENS_PER_SECOND = 1000 / 60;
/** A transcript's tokens per second of speech, with room: fast speech is about 4. */
const TRANSCRIPT_TOKENS_PER_SECOND = 8;
/**
 * Seconds assumed for a file whose duration cannot be read, from its size: 16 kbit/s, below any
 * speech codec's usual rate, so the estimate errs high.
 */
const ASSUMED_BYTES_PER_SECOND = 2000;

/** What a speech-to-text request is billed from, besides the upstream's reply. */
export interface TranscriptionBasis {
  /** The model is priced per minute of audio (`per_minute` set): billed by the duration alone. */
  perMinute: boolean;
  /** The file's duration, read from the file; undefined when it cannot be read. */
  seconds: number | undefined;
  /** The file's size in bytes. */
  bytes: number;
}

/** Seconds of audio to reserve for and, failing a reported count, to bill audio tokens on. */
export function billableSeconds(basis: Pick<TranscriptionBasis, 'seconds' | 'bytes'>): number {
  return basis.seconds ?? basis.bytes / ASSUMED_BYTES_PER_SECOND;
}

export function estimatedAudioTokens(seconds: number): number {
  return Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND);
}

export function transcriptTokenCap(seconds: number): number {
  return Math.ceil(seconds * TRANSCRIPT_TOKENS_PER_SECOND) + 64;
}

/**
 * The usage a transcription or translation is billed on (admin-api section 14), whatever format
 * the answer took: a model priced per minute by the file's duration; any other by the tokens the
 * reply reports (`usage.type: "tokens"`), or, when it reports none, by audio tokens estimated from
 * the duration and the transcript's own tokens (left unknown here, counted from its text).
 */
export function transcriptionUsage(basis: TranscriptionBasis, reported: unknown): Usage {
  const seconds = basis.seconds;
  const raw = isJsonObject(reported) ? reported : undefined;
  if (basis.perMinute)
    return { ...emptyUsage(), inputTokens: 0, outputTokens: 0, audioSeconds: seconds, raw };
  const tokens = raw && raw.type === 'tokens' ? reportedTokens(raw) : undefined;
  if (tokens) return { ...tokens, ...(seconds !== undefined && { audioSeconds: seconds }) };
  const audioTokens = estimatedAudioTokens(billableSeconds(basis));
  return {
    ...emptyUsage(),
    inputTokens: audioTokens,
    inputAudioTokens: audioTokens,
    ...(seconds !== undefined && { audioSeconds: seconds }),
    estimated: true,
    raw,
  };
}

/** `Transcription.Tokens` (openai/resources/audio/transcriptions.d.ts). */
function reportedTokens(usage: Record<string, unknown>): Usage | undefined {
  const input = usage.input_tokens;
  const output = usage.output_tokens;
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  const details = usage.input_token_details;
  const audio =
    isJsonObject(details) && typeof details.audio_tokens === 'number' ? details.audio_tokens : input;
  return {
    ...emptyUsage(),
    inputTokens: input,
    inputAudioTokens: audio,
    outputTokens: output,
    raw: usage,
  };
}
