/**
 * Checks JSON text as bytes, without building any value: what `JSON.parse` accepts (RFC 8259:
 * one value, optional whitespace around it, strict numbers, strings without raw control characters
 * and with valid escapes), nested no deeper than a limit. Bytes from 0x80 up are accepted wherever a
 * string may hold them, as `JSON.parse` accepts any text they decode to.
 */

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
export const QUOTE = 0x22;
const PLUS = 0x2b;
export const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
export const COLON = 0x3a;
export const OPEN_ARRAY = 0x5b;
const BACKSLASH = 0x5c;
export const CLOSE_ARRAY = 0x5d;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_U = 0x75;

/** Bytes a string holds as they are: not a quote, a backslash or a control character. */
const PLAIN = new Uint8Array(256).map((_, byte) =>
  byte >= SPACE && byte !== QUOTE && byte !== BACKSLASH ? 1 : 0,
);
/** What may follow a backslash besides `u`. */
const SHORT_ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const HEX = new Uint8Array(256).map((_, byte) =>
  (byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66) ? 1 : 0,
);
const LITERALS = [Buffer.from('true'), Buffer.from('false'), Buffer.from('null')];

/** Why `bytes` is not one JSON value nested at most `maxDepth` deep; undefined when it is. */
export function jsonSyntaxError(bytes: Uint8Array, maxDepth: number): string | undefined {
  const length = bytes.length;
  /** The open containers, innermost last: `OPEN_OBJECT` or `OPEN_ARRAY`. */
  const open = new Uint8Array(maxDepth);
  let depth = 0;
  let index = skipJsonSpace(bytes, 0);
  for (;;) {
    // A value starts at `index`.
    if (index >= length) return END;
    const first = bytes[index]!;
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      if (depth === maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
      open[depth++] = first;
      index = skipJsonSpace(bytes, index + 1);
      const close = first === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (bytes[index] === close) {
        depth--;
        index++;
      } else if (first === OPEN_OBJECT) {
        index = memberName(bytes, index);
        if (index < 0) return unexpected(bytes, -index - 1);
        continue;
      } else {
        continue;
      }
    } else {
      index = scalarEnd(bytes, index);
      if (index < 0) return unexpected(bytes, -index - 1);
    }
    // A value ended before `index`: the container goes on, closes, or the text ends.
    for (;;) {
      index = skipJsonSpace(bytes, index);
      if (depth === 0) return index === length ? undefined : unexpected(bytes, index);
      const inside = open[depth - 1];
      const next = bytes[index];
      if (next === COMMA) {
        index = skipJsonSpace(bytes, index + 1);
        if (inside === OPEN_OBJECT) {
          index = memberName(bytes, index);
          if (index < 0) return unexpected(bytes, -index - 1);
        }
        break;
      }
      if (next !== (inside === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) return unexpected(bytes, index);
      depth--;
      index++;
    }
  }
}

const END = 'unexpected end of the JSON text';

function unexpected(bytes: Uint8Array, index: number): string {
  return index >= bytes.length ? END : `unexpected character at byte ${index} of the JSON text`;
}

/** The index of the first byte from `from` on that is not JSON whitespace. */
export function skipJsonSpace(bytes: Uint8Array, from: number): number {
  let index = from;
  for (;;) {
    const byte = bytes[index];
    if (byte !== SPACE && byte !== LINE_FEED && byte !== CARRIAGE_RETURN && byte !== TAB) return index;
    index++;
  }
}

/**
 * A member's name and its colon, from `index`: where its value starts, or `-(position + 1)` of the
 * first byte that does not fit (the convention of every reader below).
 */
function memberName(bytes: Uint8Array, index: number): number {
  if (bytes[index] !== QUOTE) return -index - 1;
  const end = stringEnd(bytes, index);
  if (end < 0) return end;
  const colon = skipJsonSpace(bytes, end);
  if (bytes[colon] !== COLON) return -colon - 1;
  return skipJsonSpace(bytes, colon + 1);
}

/** A string, number or literal from `index`: the index after it, or `-(position + 1)`. */
function scalarEnd(bytes: Uint8Array, index: number): number {
  const first = bytes[index]!;
  if (first === QUOTE) return stringEnd(bytes, index);
  if (first === MINUS || (first >= ZERO && first <= NINE)) return numberEnd(bytes, index);
  for (const literal of LITERALS) {
    if (first !== literal[0]) continue;
    for (let offset = 1; offset < literal.length; offset++) {
      if (bytes[index + offset] !== literal[offset]) return -(index + offset) - 1;
    }
    return index + literal.length;
  }
  return -index - 1;
}

/** The string whose opening quote is at `index`: the index after its closing quote, or `-(position + 1)`. */
function stringEnd(bytes: Uint8Array, start: number): number {
  const length = bytes.length;
  let index = start + 1;
  for (;;) {
    while (index < length && PLAIN[bytes[index]!] === 1) index++;
    if (index >= length) return -length - 1;
    const byte = bytes[index]!;
    if (byte === QUOTE) return index + 1;
    if (byte !== BACKSLASH) return -index - 1;
    const escaped = bytes[index + 1]!;
    if (escaped === LOWER_U) {
      for (let digit = index + 2; digit < index + 6; digit++) {
        if (HEX[bytes[digit] ?? 0] !== 1) return -digit - 1;
      }
      index += 6;
    } else if (SHORT_ESCAPES.has(escaped)) {
      index += 2;
    } else {
      return -(index + 1) - 1;
    }
  }
}

/**
 * A number, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, from `start`: the index after
 * it, or `-(position + 1)`.
 */
function numberEnd(bytes: Uint8Array, start: number): number {
  let index = start;
  if (bytes[index] === MINUS) index++;
  if (bytes[index] === ZERO) {
    index++;
  } else {
    const digits = digitsEnd(bytes, index);
    if (digits === index) return -index - 1;
    index = digits;
  }
  if (bytes[index] === DOT) {
    const digits = digitsEnd(bytes, index + 1);
    if (digits === index + 1) return -digits - 1;
    index = digits;
  }
  if (bytes[index] === LOWER_E || bytes[index] === UPPER_E) {
    index++;
    if (bytes[index] === PLUS || bytes[index] === MINUS) index++;
    const digits = digitsEnd(bytes, index);
    if (digits === index) return -index - 1;
    index = digits;
  }
  return index;
}

function digitsEnd(bytes: Uint8Array, from: number): number {
  let index = from;
  for (;;) {
    const byte = bytes[index];
    if (byte === undefined || byte < ZERO || byte > NINE) return index;
    index++;
  }
}
