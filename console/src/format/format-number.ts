/** Token and request counts with the language's digit grouping: 1,234,567. */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(value);
}

/** A quantity to a tenth with the language's digit grouping: 1,234.5, 12 (no trailing zero). */
export function formatTenths(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);
}

/** A share as a percentage with one decimal: 0.9876 -> 98.8%. */
export function formatPercent(share: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** Milliseconds, whole: 1,234 ms. */
export function formatMilliseconds(value: number, language: string): string {
  return `${formatCount(Math.round(value), language)} ms`;
}
