import { describe, expect, it } from 'vitest';
import { findPhoneNumbers } from '../../src/guardrails/pii/find-phone-numbers.js';
import { spansOf } from './spans-of.js';

const spans = (text: string) => spansOf(findPhoneNumbers, text);

describe('findPhoneNumbers', () => {
  it('finds international numbers after a +', () => {
    expect(spans('call +1 (415) 555-2671 now')).toEqual(['+1 (415) 555-2671']);
    expect(spans('office: +44 20 7946 0958.')).toEqual(['+44 20 7946 0958']);
    expect(spans('+44 (0)20 7946 0958')).toEqual(['+44 (0)20 7946 0958']);
    expect(spans('+49-30-1234567, +33.1.23.45.67.89 and +4930123456')).toEqual([
      '+49-30-1234567',
      '+33.1.23.45.67.89',
      '+4930123456',
    ]);
  });

  it('finds North American numbers in their written shapes', () => {
    expect(spans('(415) 555-2671 or 415-555-2671 or 415.555.2671 or 1-800-555-0199')).toEqual([
      '(415) 555-2671',
      '415-555-2671',
      '415.555.2671',
      '1-800-555-0199',
    ]);
  });

  it('finds national numbers with a trunk 0 and separators', () => {
    expect(spans('Tel. 030 1234567')).toEqual(['030 1234567']);
    expect(spans('(030) 1234567, 020 7946 0958, 0151 12345678, 030/1234567')).toEqual([
      '(030) 1234567',
      '020 7946 0958',
      '0151 12345678',
      '030/1234567',
    ]);
    expect(spans('06 12 34 56 78 and 090-1234-5678')).toEqual(['06 12 34 56 78', '090-1234-5678']);
  });

  it('leaves plain numbers: years, prices, decimals, counts, ids, times, versions, addresses', () => {
    const ordinary = [
      'In 2024 we shipped 3 releases.',
      'pi is 3.14159 and e is 2.71828',
      '1,234,567 tokens cost $12.50',
      'order #123456 and invoice 20240115001',
      'created 1700000000 (1700000000123 ms)',
      'at 2024-01-15 12:30:45 and 2024-01-15T12:30:45Z',
      'on 01-02-2024, 01/02/2024 or 15.01.2024',
      'version 1.2.3, 10.20.30 and v0-12-345678',
      'host 192.168.1.1 and 10.0.0.254',
      'score 12 345 678 points, 100 200 3000 items',
      'phone 555-1234 and ext. 0123',
      '+1.5% and +100 points, 3+4=7',
      'ISBN 0-306-40615-2',
    ];
    for (const text of ordinary) expect(spans(text), text).toEqual([]);
  });

  it('does not start inside a longer number or word', () => {
    expect(spans('id 9030 1234567')).toEqual([]);
    expect(spans('ref A030 1234567')).toEqual([]);
    expect(spans('DE89 3704 0044 0532 0130 00')).toEqual([]);
  });

  it('keeps to 7-15 digits', () => {
    expect(spans('+12 3456')).toEqual([]);
    expect(spans('+123456789012345678')).toEqual([]);
  });
});
