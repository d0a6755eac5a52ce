/** One CSV field before encoding; null is written as an empty field. */
export type CsvValue = string | number | null;

/** Fields holding one of these are quoted (RFC 4180 section 2, rules 5 to 7). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Leading characters that make a spreadsheet read a text field as a formula: such a field gets a
 * single quote in front, as the gateway's own log export does
 * (https://owasp.org/www-community/attacks/CSV_Injection). Numbers are never prefixed.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV record ended by CRLF (https://www.rfc-editor.org/rfc/rfc4180#section-2). */
export function encodeCsvRow(values: readonly CsvValue[]): string {
  return `${values.map(encodeCsvField).join(',')}\r\n`;
}

function encodeCsvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
