import { describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../src/guardrails/pii/find-card-numbers.js';
import { isLuhnValid } from '../../src/guardrails/pii/is-luhn-valid.js';
import { spansOf } from './spans-of.js';

const spans = (text: string) => spansOf(findCardNumbers, text);

describe('isLuhnValid', () => {
  it('accepts card test numbers and refuses a changed digit', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('5555555555554444')).toBe(true);
    expect(isLuhnValid('378282246310005')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
  });
});

describe('findCardNumbers', () => {
  it('finds Luhn-valid numbers, grouped by spaces or hyphens or not at all', () => {
    expect(spans('card 4111 1111 1111 1111 please')).toEqual(['4111 1111 1111 1111']);
    expect(spans('5555-5555-5555-4444')).toEqual(['5555-5555-5555-4444']);
    expect(spans('amex 378282246310005 / 3782 822463 10005')).toEqual([
      '378282246310005',
      '3782 822463 10005',
    ]);
    expect(spans('discover 6011111111111117, jcb 3530111333300000, mc 2223003122003222')).toEqual([
      '6011111111111117',
      '3530111333300000',
      '2223003122003222',
    ]);
    expect(spans('19 digits 4222 2222 2222 2222 224')).toEqual(['4222 2222 2222 2222 224']);
  });

  it('takes the card out of a longer run of groups', () => {
    expect(spans('4111 1111 1111 1111 12/25 123')).toEqual(['4111 1111 1111 1111']);
    expect(spans('items 12 4111 1111 1111 1111')).toEqual(['4111 1111 1111 1111']);
  });

  it('leaves numbers that fail Luhn, have the wrong length or are not written like cards', () => {
    expect(spans('4111 1111 1111 1112')).toEqual([]);
    expect(spans('random 4929123456789012')).toEqual([]);
    expect(spans('411111111111')).toEqual([]);
    expect(spans('41111111111111111111')).toEqual([]);
    expect(spans('4111 11 11 1111 1111 1')).toEqual([]);
    expect(spans('4111-1111 1111-1111')).toEqual([]);
    expect(spans('4111111111111111.50')).toEqual([]);
    expect(spans('tok_4111111111111111 and 4111111111111111abc')).toEqual([]);
  });

  it('leaves timestamps and ids, which start with 1, even when they pass Luhn', () => {
    expect(isLuhnValid('1700000000004')).toBe(true);
    expect(spans('at 1700000000004 ms')).toEqual([]);
    expect(isLuhnValid('1234567890123452')).toBe(true);
    expect(spans('snowflake 1234567890123452')).toEqual([]);
  });
});
