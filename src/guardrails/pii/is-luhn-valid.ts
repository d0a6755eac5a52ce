/**
 * Whether a string of digits passes the Luhn check (ISO/IEC 7812-1 annex B), which every payment
 * card number does: https://en.wikipedia.org/wiki/Luhn_algorithm
 */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}
