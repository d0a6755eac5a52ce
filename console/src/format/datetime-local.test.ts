import { describe, expect, it } from 'vitest';
import { fromDateTimeLocal, toDateTimeLocal } from './datetime-local';

describe('datetime-local values', () => {
  it('round-trips whole minutes in local time', () => {
    const seconds = Math.floor(new Date(2025, 0, 31, 13, 5).getTime() / 1000);
    expect(toDateTimeLocal(seconds)).toBe('2025-01-31T13:05');
    expect(fromDateTimeLocal('2025-01-31T13:05')).toBe(seconds);
  });

  it('maps empty and invalid text to null', () => {
    expect(toDateTimeLocal(null)).toBe('');
    expect(fromDateTimeLocal('')).toBeNull();
    expect(fromDateTimeLocal('not a date')).toBeNull();
  });
});
