import { z } from 'zod';
import { nonNegativeUsdAsNano } from './usd-schema.js';

/** Body of `PUT /api/prices/{model}`: USD per 1M tokens (per call for `per_request`). */
export const putPriceSchema = z.strictObject({
  input: nonNegativeUsdAsNano,
  output: nonNegativeUsdAsNano,
  cached_input: nonNegativeUsdAsNano.nullable().default(null),
  cache_write: nonNegativeUsdAsNano.nullable().default(null),
  per_request: nonNegativeUsdAsNano.nullable().default(null),
});

export const PRICE_READ_ONLY_FIELDS = ['model'] as const;
