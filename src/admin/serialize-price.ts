import { nanoToUsd } from '../billing/money.js';
import type { PriceRecord } from '../store/prices-repository.js';

/** A price in USD per 1M tokens (per call for `per_request`). */
export function serializePrice(price: PriceRecord) {
  const optional = (nano: number | null) => (nano === null ? null : nanoToUsd(nano));
  return {
    model: price.model,
    input: nanoToUsd(price.input),
    output: nanoToUsd(price.output),
    cached_input: optional(price.cachedInput),
    cache_write: optional(price.cacheWrite),
    per_request: optional(price.perRequest),
    input_audio: optional(price.inputAudio),
    output_audio: optional(price.outputAudio),
    per_minute: optional(price.perMinute),
    per_million_characters: optional(price.perMillionCharacters),
  };
}
