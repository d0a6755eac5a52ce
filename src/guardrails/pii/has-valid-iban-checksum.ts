/**
 * The ISO 13616 / ISO 7064 MOD 97-10 check of a compact, upper-case IBAN: the first four characters
 * moved to the end, letters read as 10-35, the resulting number modulo 97 is 1
 * (https://en.wikipedia.org/wiki/International_Bank_Account_Number#Validating_the_IBAN). Check
 * digits 00, 01 and 99 are never issued, though 00 and 01 can pass the arithmetic.
 */
export function hasValidIbanChecksum(iban: string): boolean {
  const checkDigits = iban.slice(2, 4);
  if (checkDigits === '00' || checkDigits === '01' || checkDigits === '99') return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let index = 0; index < rearranged.length; index++) {
    const code = rearranged.charCodeAt(index);
    const value = code <= 57 ? code - 48 : code - 55;
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return remainder === 1;
}
