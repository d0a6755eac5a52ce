import { nanoToUsd } from '../billing/money.js';
import type { PriceRecord } from '../store/prices-repository.js';

/** A price in USD per 1M tokens (per call for `per_request`). */
export function serializePrice(price: PriceRecord) {
  return serializePriceForGroup(price, 1);
}

/**
 * The same times a group's `ratio` (the price list of a group, admin-api section 15), rounded to
 * the nano-USD.
 */
export function serializePriceForGroup(price: PriceRecord, ratio: number) {
  const usd = (nano: number) => nanoToUsd(ratio === 1 ? nano : Math.round(nano * ratio));
  const optional = (nano: number | null) => (nano === null ? null : usd(nano));
  return {
    model: price.model,
    input: usd(price.input),
    output: usd(price.output),
    cached_input: optional(price.cachedInput),
    cache_write: optional(price.cacheWrite),
    per_request: optional(price.perRequest),
    input_audio: optional(price.inputAudio),
    output_audio: optional(price.outputAudio),
    per_minute: optional(price.perMinute),
    per_million_characters: optional(price.perMillionCharacters),
  };
}
