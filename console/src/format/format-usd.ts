const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 6,
  maximumFractionDigits: 6,
});

/**
 * Money as the gateway prints it: US dollars with 6 decimals (admin-api section 3), `$1,234.500000`.
 * The same in every interface language, so amounts read as they do in the gateway's messages.
 */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount)) return '—';
  // The API is exact to 1e-9 USD: whole nano-dollars first, then half-up to micro-dollars in
  // integers, so 1.0000005 (1000000.4999... in binary times 1e6) still rounds up.
  const nano = Math.round(Math.abs(amount) * 1e9);
  const micro = Math.floor((nano + 500) / 1000);
  const text = USD.format(micro / 1e6);
  return amount < 0 && micro !== 0 ? `-${text}` : text;
}
