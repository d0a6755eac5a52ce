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
}

/**
 * Cost in nano-USD (admin-api section 3, rule 1): uncached input, cache reads and cache writes
 * at their own prices, output, and per-call charges, times the group ratio. Rounded once, at the end.
 */
export function quoteCost(price: PriceRecord, usage: BillableUsage, groupRatio: number): number {
  const uncachedInput = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const tokenCost =
    (uncachedInput * price.input +
      usage.cacheReadTokens * (price.cachedInput ?? price.input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
      usage.outputTokens * price.output) /
    TOKENS_PER_PRICE_UNIT;
  const callCost = (price.perRequest ?? 0) * usage.calls;
  return Math.round((tokenCost + callCost) * groupRatio);
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
    },
    options.groupRatio,
  );
}
