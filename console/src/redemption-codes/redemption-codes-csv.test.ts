import { describe, expect, it } from 'vitest';
import type { CreatedRedemptionCode } from './redemption-code';
import { redemptionCodesCsv, redemptionCodesFileName } from './redemption-codes-csv';

const code = (id: number, overrides: Partial<CreatedRedemptionCode> = {}): CreatedRedemptionCode => ({
  id,
  code: `rc_${id}abcdef`,
  amount: 2.5,
  expires_at: 1_900_000_000,
  name: 'spring',
  ...overrides,
});

describe('redemptionCodesCsv', () => {
  it('writes a header and one CRLF-ended row per code, with the members the gateway sent', () => {
    expect(
      redemptionCodesCsv([code(7), code(8, { expires_at: null, name: null, amount: 0.000000001 })]),
    ).toBe(
      'id,code,amount,expires_at,name\r\n' +
        '7,rc_7abcdef,2.5,1900000000,spring\r\n' +
        '8,rc_8abcdef,0.000000001,,\r\n',
    );
  });

  it('quotes a name with commas or quotes, and keeps a spreadsheet from reading it as a formula', () => {
    const csv = redemptionCodesCsv([
      code(1, { name: 'Team "A", spring' }),
      code(2, { name: '=HYPERLINK("x")' }),
    ]);
    expect(csv.split('\r\n').slice(1, 3)).toEqual([
      '1,rc_1abcdef,2.5,1900000000,"Team ""A"", spring"',
      `2,rc_2abcdef,2.5,1900000000,"'=HYPERLINK(""x"")"`,
    ]);
  });
});

describe('redemptionCodesFileName', () => {
  it('names the download after the batch and its first id', () => {
    expect(redemptionCodesFileName([code(41, { name: 'Spring sale / 2025' }), code(42)])).toBe(
      'redemption-codes-Spring-sale-2025-41.csv',
    );
    expect(redemptionCodesFileName([code(5, { name: null })])).toBe('redemption-codes-5.csv');
  });
});
