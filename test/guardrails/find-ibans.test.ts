import { describe, expect, it } from 'vitest';
import { findIbans } from '../../src/guardrails/pii/find-ibans.js';
import { hasValidIbanChecksum } from '../../src/guardrails/pii/has-valid-iban-checksum.js';
import { spansOf } from './spans-of.js';

const spans = (text: string) => spansOf(findIbans, text);

describe('hasValidIbanChecksum', () => {
  it('checks ISO 13616 mod 97', () => {
    expect(hasValidIbanChecksum('GB82WEST12345698765432')).toBe(true);
    expect(hasValidIbanChecksum('DE89370400440532013000')).toBe(true);
    expect(hasValidIbanChecksum('DE88370400440532013000')).toBe(false);
    expect(hasValidIbanChecksum('GB82WEST12345698765433')).toBe(false);
  });

  it('refuses check digits 00, which pass the arithmetic wherever 97 does', () => {
    expect(hasValidIbanChecksum('GB97WEST12345698765453')).toBe(true);
    expect(hasValidIbanChecksum('GB00WEST12345698765453')).toBe(false);
  });
});

describe('findIbans', () => {
  it('finds IBANs in print form and in one piece', () => {
    expect(spans('pay GB82 WEST 1234 5698 7654 32 by Friday')).toEqual(['GB82 WEST 1234 5698 7654 32']);
    expect(spans('IBAN: DE89370400440532013000.')).toEqual(['DE89370400440532013000']);
    expect(spans('DE89 3704 0044 0532 0130 00')).toEqual(['DE89 3704 0044 0532 0130 00']);
    expect(spans('NO93 8601 1117 947 and NL91ABNA0417164300')).toEqual([
      'NO93 8601 1117 947',
      'NL91ABNA0417164300',
    ]);
  });

  it("cuts the print form at the country's length", () => {
    expect(spans('BE68 5390 0754 7034 EUR')).toEqual(['BE68 5390 0754 7034']);
    expect(spans('BE68 5390 0754 7034 ABCD EFGH')).toEqual(['BE68 5390 0754 7034']);
  });

  it('refuses a wrong check digit, the wrong length for the country, and lower case', () => {
    expect(spans('DE88370400440532013000')).toEqual([]);
    expect(spans('GB82 WEST 1234 5698 7654 33')).toEqual([]);
    expect(spans('GB82WEST1234569876543')).toEqual([]);
    expect(spans('de89370400440532013000')).toEqual([]);
    expect(spans('XDE89370400440532013000')).toEqual([]);
  });

  it('accepts a valid checksum of a plausible length for a country outside the registry', () => {
    // Côte d'Ivoire uses 28-character IBANs but is not in the SWIFT registry.
    expect(spans('CI93 CI00 8011 1301 1342 9120 0589')).toEqual(['CI93 CI00 8011 1301 1342 9120 0589']);
    expect(spans('ZZ12 3456 7890 1234 5678')).toEqual([]);
  });
});
