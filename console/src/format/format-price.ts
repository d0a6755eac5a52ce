const PRICE = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** A list price as people read one: `$0.15`, `$2.50`, `$0.000125` (the same in every language). */
export function formatPrice(usd: number): string {
  return Number.isFinite(usd) ? PRICE.format(usd) : '—';
}
