/** One CSV field before encoding; null is written as an empty field. */
export type CsvValue = string | number | boolean | null;

/** Fields holding one of these are quoted (RFC 4180 section 2, rules 5 to 7). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Leading characters that make a spreadsheet read a text field as a formula. Such a field gets a
 * single quote in front, so that Excel, LibreOffice and Google Sheets show it as text instead of
 * evaluating it: https://owasp.org/www-community/attacks/CSV_Injection. Numbers and booleans are
 * never prefixed, so a reader that wants the exact text drops one leading `'` from a text field
 * whose second character is one of these (or takes the JSON Lines export, which is unchanged).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV record ended by CRLF (https://www.rfc-editor.org/rfc/rfc4180#section-2): fields holding a
 * comma, a double quote, CR or LF are quoted with their quotes doubled; null is an empty field,
 * booleans `true` / `false`, numbers as JSON writes them.
 */
export function encodeCsvRow(values: readonly CsvValue[]): string {
  return `${values.map(encodeCsvField).join(',')}\r\n`;
}

export function encodeCsvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
