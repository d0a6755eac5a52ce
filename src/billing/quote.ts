import type { PriceRecord } from '../store/prices-repository.js';

const TOKENS_PER_PRICE_UNIT = 1_000_000;

/** Counts that a cost is computed from; every field is a whole count already resolved (no unknowns). */
export interface BillableUsage {
  /** All input tokens, cache reads and writes included. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** All output tokens, reasoning included. */
  outputTokens: number;
  /** Calls charged at `per_request`: 1 for an ordinary request, the count of images or searches otherwise. */
  calls: number;
  /** Of the uncached input and of the output, the audio tokens (admin-api section 14); 0 when none. */
  inputAudioTokens?: number;
  outputAudioTokens?: number;
  /** Seconds of input audio, charged at `per_minute`. */
  audioSeconds?: number;
  /** Characters of input text turned into speech, charged at `per_million_characters`. */
  characters?: number;
}

/**
 * Cost in nano-USD (admin-api section 3, rule 1; section 14): uncached input, cache reads and cache
 * writes at their own prices, audio tokens at theirs, output, per-call charges, minutes of input
 * audio and characters of speech input, times the group ratio. Rounded once, at the end.
 */
export function quoteCost(price: PriceRecord, usage: BillableUsage, groupRatio: number): number {
  const uncachedInput = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const inputAudio = Math.min(uncachedInput, usage.inputAudioTokens ?? 0);
  const outputAudio = Math.min(usage.outputTokens, usage.outputAudioTokens ?? 0);
  const tokenCost =
    ((uncachedInput - inputAudio) * price.input +
      inputAudio * (price.inputAudio ?? price.input) +
      usage.cacheReadTokens * (price.cachedInput ?? price.input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
      (usage.outputTokens - outputAudio) * price.output +
      outputAudio * (price.outputAudio ?? price.output)) /
    TOKENS_PER_PRICE_UNIT;
  const callCost = (price.perRequest ?? 0) * usage.calls;
  const audioCost = ((price.perMinute ?? 0) * (usage.audioSeconds ?? 0)) / 60;
  const characterCost = ((price.perMillionCharacters ?? 0) * (usage.characters ?? 0)) / 1_000_000;
  return Math.round((tokenCost + callCost + audioCost + characterCost) * groupRatio);
}

/**
 * The amount reserved before the upstream call (admin-api section 3, rule 2): estimated input and
 * the request's full output cap, plus one call's `per_request`, times the group ratio.
 */
export function quotePreCharge(options: {
  price: PriceRecord;
  estimatedInputTokens: number;
  outputCap: number;
  calls: number;
  inputAudioTokens?: number | undefined;
  characters?: number | undefined;
  audioSeconds?: number | undefined;
  groupRatio: number;
}): number {
  return quoteCost(
    options.price,
    {
      inputTokens: options.estimatedInputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: options.outputCap,
      calls: options.calls,
      inputAudioTokens: options.inputAudioTokens ?? 0,
      characters: options.characters ?? 0,
      audioSeconds: options.audioSeconds ?? 0,
    },
    options.groupRatio,
  );
}
