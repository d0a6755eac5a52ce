/**
 * Money is held as integers of nano-USD (1e-9 USD) so sums never lose a fraction.
 * Prices are nano-USD per 1,000,000 tokens (or per call for `per_request`).
 */
export const NANO_PER_USD = 1_000_000_000;

/** Largest amount representable exactly: about 9 million USD. */
export const MAX_USD = Math.floor(Number.MAX_SAFE_INTEGER / NANO_PER_USD);

export function usdToNano(usd: number): number {
  return Math.round(usd * NANO_PER_USD);
}

export function nanoToUsd(nano: number): number {
  return nano / NANO_PER_USD;
}

/** `$` and six decimals, as the quota error messages print amounts. */
export function formatUsd(nano: number): string {
  return `$${(nano / NANO_PER_USD).toFixed(6)}`;
}
