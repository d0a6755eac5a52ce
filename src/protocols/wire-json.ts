/** Readers for JSON of unknown shape, shared by every codec: they narrow, never throw (STYLE rule 8). */

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asFiniteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** A token count: a finite, non-negative number, rounded. */
export function asCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse` as a result instead of a throw. */
export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The deepest nesting of arrays and objects a JSON text from outside may have. Parsing is
 * iterative, but serialising again (`JSON.stringify`) and every recursive reader are not: a body of
 * twenty thousand nested arrays overflows the stack in them.
 */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const LETTER_U = 0x75;
const LETTER_E = 0x65;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_ZERO = 0x30;
const HEX_DIGITS = /^[0-9a-fA-F]{4}$/;
/** The escapes other than `\u`: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`. */
const SHORT_ESCAPES = new Set([...'"\\/bfnrt'].map((character) => character.charCodeAt(0)));
/** Strings up to this length are read in place; longer ones go to the native search, far faster per byte. */
const SHORT_STRING = 32;

/**
 * Whether a JSON text nests arrays and objects deeper than `maxDepth`, told in one pass without
 * allocating: brackets inside strings do not count, and the scan stops as soon as the limit is
 * passed. Structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence (or a
 * UTF-16 surrogate), so bytes and string code units are read alike. Invalid JSON gives some answer;
 * `JSON.parse` refuses it either way.
 */
export function jsonDepthExceeds(source: string | Uint8Array, maxDepth: number): boolean {
  return typeof source === 'string'
    ? textDepthExceeds(source, maxDepth)
    : bytesDepthExceeds(source, maxDepth);
}

function bytesDepthExceeds(bytes: Uint8Array, maxDepth: number): boolean {
  const length = bytes.length;
  let depth = 0;
  for (let index = 0; index < length; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) {
      index = bytesStringEnd(bytes, index + 1);
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * Index of the quote that closes the string whose text starts at `from`, or the end of the input.
 * Bytes are read in place for a short stretch, then the native search jumps to the next quote. A
 * quote after an odd run of backslashes is escaped: reading goes on in place after it. Every byte
 * is looked at a bounded number of times, so the scan stays linear.
 */
export function bytesStringEnd(bytes: Uint8Array, from: number): number {
  const length = bytes.length;
  let index = from;
  for (;;) {
    const inPlaceEnd = Math.min(length, index + SHORT_STRING);
    for (; index < inPlaceEnd; index++) {
      const byte = bytes[index];
      if (byte === QUOTE) return index;
      if (byte === BACKSLASH) index++;
    }
    // Every escape before `index` is consumed.
    const quote = index < length ? bytes.indexOf(QUOTE, index) : -1;
    if (quote < 0) return length;
    let before = quote - 1;
    while (before >= index && bytes[before] === BACKSLASH) before--;
    if ((quote - before) % 2 === 1) return quote;
    index = quote + 1;
  }
}

function textDepthExceeds(text: string, maxDepth: number): boolean {
  const length = text.length;
  let depth = 0;
  for (let index = 0; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === QUOTE) {
      index = textStringEnd(text, index + 1);
    } else if (unit === OPEN_ARRAY || unit === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (unit === CLOSE_ARRAY || unit === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * `bytesStringEnd` over string code units: the index of the quote that closes the string whose
 * text starts at `from`, or the text's length when none does.
 */
export function textStringEnd(text: string, from: number): number {
  const length = text.length;
  let index = from;
  for (;;) {
    const inPlaceEnd = Math.min(length, index + SHORT_STRING);
    for (; index < inPlaceEnd; index++) {
      const unit = text.charCodeAt(index);
      if (unit === QUOTE) return index;
      if (unit === BACKSLASH) index++;
    }
    const quote = index < length ? text.indexOf('"', index) : -1;
    if (quote < 0) return length;
    let before = quote - 1;
    while (before >= index && text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - before) % 2 === 1) return quote;
    index = quote + 1;
  }
}

/**
 * Whether `text` from `start` to `end` is one JSON string token: a quote at each end, and between
 * them no other unescaped quote, no control character and only JSON's escapes (`\u` with four hex
 * digits). What `JSON.parse` would accept as a string, told without making one.
 */
export function isStringToken(text: string, start: number, end: number): boolean {
  const last = end - 1;
  if (last <= start || text.charCodeAt(start) !== QUOTE || text.charCodeAt(last) !== QUOTE) return false;
  for (let index = start + 1; index < last; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || unit === QUOTE) return false;
    if (unit !== BACKSLASH) continue;
    const escaped = text.charCodeAt(++index);
    if (escaped === LETTER_U) {
      // The closing quote is no hex digit: four digits never reach past it.
      if (!HEX_DIGITS.test(text.slice(index + 1, index + 5))) return false;
      index += 4;
    } else if (index >= last || !SHORT_ESCAPES.has(escaped)) {
      return false;
    }
  }
  return true;
}

/**
 * Where the JSON number token that starts at `from` ends (`-`, an integer part without leading
 * zeros, an optional fraction and exponent), or -1 when none starts there.
 */
export function numberTokenEnd(text: string, from: number): number {
  let index = text.charCodeAt(from) === MINUS ? from + 1 : from;
  if (text.charCodeAt(index) === DIGIT_ZERO) index++;
  else if (isDigit(text.charCodeAt(index))) index = digitsEnd(text, index);
  else return -1;
  if (text.charCodeAt(index) === DOT) {
    if (!isDigit(text.charCodeAt(index + 1))) return -1;
    index = digitsEnd(text, index + 1);
  }
  if ((text.charCodeAt(index) | 0x20) === LETTER_E) {
    index++;
    const sign = text.charCodeAt(index);
    if (sign === PLUS || sign === MINUS) index++;
    if (!isDigit(text.charCodeAt(index))) return -1;
    index = digitsEnd(text, index);
  }
  return index;
}

function isDigit(unit: number): boolean {
  return unit >= DIGIT_ZERO && unit <= DIGIT_ZERO + 9;
}

function digitsEnd(text: string, from: number): number {
  let index = from;
  while (isDigit(text.charCodeAt(index))) index++;
  return index;
}

/**
 * Sets `target[key]` as an own data member. A plain assignment to a `__proto__` key from a client's
 * JSON would replace the target's prototype with the client's object instead.
 */
export function setOwnMember(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** `Object.assign` for JSON of unknown origin: every own member of `source` becomes an own member of `target`. */
export function assignMembers(target: JsonObject, source: JsonObject): JsonObject {
  for (const key of Object.keys(source)) setOwnMember(target, key, source[key]);
  return target;
}

/** The value when it is a JSON object, else undefined. */
export function asJsonObject(value: unknown): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/** The value when it is a JSON object, else an empty one: for reading nested members in one go. */
export function membersOf(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asStringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/**
 * The object without the named keys (and without undefined members), or undefined when nothing is
 * left: what a decoder keeps of a wire object beyond the members it maps.
 */
export function withoutKeys(
  value: JsonObject,
  keys: readonly string[] | ReadonlySet<string>,
): JsonObject | undefined {
  const known: ReadonlySet<string> = Array.isArray(keys) ? new Set(keys) : (keys as ReadonlySet<string>);
  let rest: JsonObject | undefined;
  for (const key of Object.keys(value)) {
    if (known.has(key) || value[key] === undefined) continue;
    rest ??= {};
    setOwnMember(rest, key, value[key]);
  }
  return rest;
}

/** Structural equality of JSON values (key order ignored), to tell whether a canonical value changed. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => jsonEqual(item, right[index]));
  }
  if (!isJsonObject(left) || !isJsonObject(right)) return false;
  const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => jsonEqual(left[key], right[key]));
}
