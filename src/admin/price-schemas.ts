import { z } from 'zod';
import { nonNegativeUsdAsNano } from './usd-schema.js';

/**
 * Body of `PUT /api/prices/{model}`: USD per 1M tokens (per call for `per_request`, per minute of
 * input audio for `per_minute`, per 1M input characters for `per_million_characters`).
 */
export const putPriceSchema = z.strictObject({
  input: nonNegativeUsdAsNano,
  output: nonNegativeUsdAsNano,
  cached_input: nonNegativeUsdAsNano.nullable().default(null),
  cache_write: nonNegativeUsdAsNano.nullable().default(null),
  per_request: nonNegativeUsdAsNano.nullable().default(null),
  input_audio: nonNegativeUsdAsNano.nullable().default(null),
  output_audio: nonNegativeUsdAsNano.nullable().default(null),
  per_minute: nonNegativeUsdAsNano.nullable().default(null),
  per_million_characters: nonNegativeUsdAsNano.nullable().default(null),
});

export const PRICE_READ_ONLY_FIELDS = ['model'] as const;
