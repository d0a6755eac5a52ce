import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  skipJsonSpace,
} from './json-syntax.js';
import {
  bytesStringEnd,
  jsonDepthExceeds,
  parseJson,
  setOwnMember,
  type JsonParseResult,
} from './wire-json.js';

/**
 * From this length on, a string is a large object in V8 (128 KiB): making one takes fresh memory
 * pages, and on a 2-core virtual machine making the string of a 406 KB body took 1.5 ms, against
 * 0.2 to 0.4 ms for parsing it (and 63 µs to make and parse one of 131 KB just below the line).
 */
export const LARGE_STRING_BYTES = 128 * 1024;

/**
 * `parseJson` for text from outside: a text nested deeper than `maxDepth` is refused before
 * anything recursive touches it. Bytes are read as UTF-8; from `LARGE_STRING_BYTES` on, in pieces.
 */
export function parseJsonWithin(source: string | Buffer, options: { maxDepth: number }): JsonParseResult {
  if (jsonDepthExceeds(source, options.maxDepth)) {
    return { ok: false, error: `JSON nested deeper than ${options.maxDepth} levels` };
  }
  if (typeof source === 'string') return parseJson(source);
  if (source.length < LARGE_STRING_BYTES) return parseJson(source.toString('utf8'));
  try {
    return { ok: true, value: parseJsonInPieces(source) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * `JSON.parse` of UTF-8 bytes without making a string of `pieceBytes` or more where it can be
 * helped: an array or object that large is taken apart, its names and smaller values parsed one by
 * one and put together again (members in their order, a repeated name keeping its first place and
 * its last value, `__proto__` an own member, as `JSON.parse` does). Only a single string value that
 * large is still made whole. The same text is accepted and refused as by `JSON.parse`, which
 * checks every piece; the commas, colons and brackets between pieces are checked here. Throws a
 * `SyntaxError` as `JSON.parse` does.
 */
export function parseJsonInPieces(bytes: Buffer, pieceBytes = LARGE_STRING_BYTES): unknown {
  const start = skipJsonSpace(bytes, 0);
  const end = valueEnd(bytes, start);
  if (skipJsonSpace(bytes, end) !== bytes.length) throw unexpected(skipJsonSpace(bytes, end));
  return parseValue(bytes, start, end, pieceBytes);
}

function parseValue(bytes: Buffer, start: number, end: number, pieceBytes: number): unknown {
  const first = bytes[start];
  if (end - start < pieceBytes || (first !== OPEN_ARRAY && first !== OPEN_OBJECT)) {
    return JSON.parse(bytes.toString('utf8', start, end));
  }
  const close = first === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT;
  if (bytes[end - 1] !== close) throw unexpected(end - 1);
  const array: unknown[] = [];
  const object: Record<string, unknown> = {};
  let index = skipJsonSpace(bytes, start + 1);
  if (index === end - 1) return first === OPEN_ARRAY ? array : object;
  for (;;) {
    let name: string | undefined;
    if (first === OPEN_OBJECT) {
      if (bytes[index] !== QUOTE) throw unexpected(index);
      const nameEnd = bytesStringEnd(bytes, index + 1) + 1;
      name = JSON.parse(bytes.toString('utf8', index, nameEnd)) as string;
      index = skipJsonSpace(bytes, nameEnd);
      if (bytes[index] !== COLON) throw unexpected(index);
      index = skipJsonSpace(bytes, index + 1);
    }
    const valueStop = Math.min(valueEnd(bytes, index), end - 1);
    const value = parseValue(bytes, index, valueStop, pieceBytes);
    if (name === undefined) array.push(value);
    else setOwnMember(object, name, value);
    index = skipJsonSpace(bytes, valueStop);
    if (index === end - 1) return first === OPEN_ARRAY ? array : object;
    if (bytes[index] !== COMMA) throw unexpected(index);
    index = skipJsonSpace(bytes, index + 1);
  }
}

function unexpected(index: number): SyntaxError {
  return new SyntaxError(`Unexpected character in JSON at position ${index}`);
}

/**
 * Where the value starting at `start` ends, read without checking it: a string at its closing
 * quote, an array or object at its matching bracket (strings inside skipped), anything else at the
 * next comma, bracket or whitespace. Text that is not JSON gives some end; the parse of the piece,
 * or the check of what follows it, refuses it then. The end of the input bounds every answer.
 */
export function valueEnd(bytes: Uint8Array, start: number): number {
  const length = bytes.length;
  const first = bytes[start];
  if (first === QUOTE) return Math.min(length, bytesStringEnd(bytes, start + 1) + 1);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let index = start;
    for (; index < length; index++) {
      const byte = bytes[index]!;
      if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || byte <= 0x20) break;
    }
    return index;
  }
  let depth = 0;
  for (let index = start; index < length; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) index = bytesStringEnd(bytes, index + 1);
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return index + 1;
  }
  return length;
}
