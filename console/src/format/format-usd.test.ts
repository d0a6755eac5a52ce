import { describe, expect, it } from 'vitest';
import { formatUsd } from './format-usd';

describe('formatUsd', () => {
  it('prints dollars with six decimals', () => {
    expect(formatUsd(0)).toBe('$0.000000');
    expect(formatUsd(1)).toBe('$1.000000');
    expect(formatUsd(0.000001)).toBe('$0.000001');
    expect(formatUsd(12.5)).toBe('$12.500000');
  });

  it('groups thousands', () => {
    expect(formatUsd(1234567.891234)).toBe('$1,234,567.891234');
  });

  it('rounds half up in decimal, not in binary', () => {
    expect(formatUsd(1.0000005)).toBe('$1.000001');
    expect(formatUsd(0.0000004)).toBe('$0.000000');
    expect(formatUsd(2.675e-6)).toBe('$0.000003');
  });

  it('keeps the sign of negative amounts', () => {
    expect(formatUsd(-0.25)).toBe('-$0.250000');
    expect(formatUsd(-0.0000001)).toBe('$0.000000');
  });

  it('shows a dash for values that are not numbers', () => {
    expect(formatUsd(Number.NaN)).toBe('—');
  });
});
