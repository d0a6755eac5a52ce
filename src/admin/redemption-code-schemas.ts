import { z } from 'zod';
import { MAX_CODES_PER_BATCH } from './invite-codes.js';
import { nonNegativeUsdAsNano } from './usd-schema.js';

/** Body of `POST /api/redemption-codes`: `count` codes, each worth `amount` USD. */
export const createRedemptionCodesSchema = z.strictObject({
  amount: nonNegativeUsdAsNano.refine((nano) => nano > 0, 'must be at least 0.000000001 USD'),
  count: z.number().int().min(1).max(MAX_CODES_PER_BATCH).default(1),
  expires_at: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().default(null),
  name: z.string().max(128).default(''),
});

/**
 * Body of `PATCH /api/redemption-codes/{id}`: `disabled` stops the code from being redeemed;
 * `unused` lifts that again (a used or expired code stays what it is).
 */
export const updateRedemptionCodeSchema = z.strictObject({
  status: z.enum(['disabled', 'unused']),
});

export const REDEMPTION_CODE_READ_ONLY_FIELDS = [
  'id',
  'code',
  'name',
  'amount',
  'expires_at',
  'used_by',
  'used_at',
  'created_at',
] as const;
