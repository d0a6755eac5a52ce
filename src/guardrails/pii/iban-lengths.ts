/**
 * The length of an IBAN, country code and check digits included, for each country of the SWIFT IBAN
 * registry (https://www.swift.com/standards/data-standards/iban-international-bank-account-number),
 * written `<country><length>`. A few lines of data instead of a dependency: the detector needs only
 * the length and the ISO 13616 checksum, not the per-country BBAN formats and bank-code checks a
 * library such as ibantools adds, and a well-formed IBAN with a valid checksum but an odd BBAN is
 * still someone's account number worth redacting.
 */
const REGISTRY =
  'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 ' +
  'EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 ' +
  'IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 ' +
  'NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 ' +
  'SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30';

export const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  REGISTRY.split(' ').map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** ISO 13616 bounds, used for countries outside the registry (some use IBANs all the same). */
export const IBAN_MIN_LENGTH = 15;
export const IBAN_MAX_LENGTH = 34;
