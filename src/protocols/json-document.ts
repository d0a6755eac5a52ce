import {
  CLOSE_ARRAY,
  COMMA,
  jsonSyntaxError,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  skipJsonSpace,
} from './json-syntax.js';
import { LARGE_STRING_BYTES, parseJsonInPieces, parseJsonWithin, valueEnd } from './parse-json-within.js';
import { bytesStringEnd, isJsonObject } from './wire-json.js';

/** A path into a JSON value: member names and array indexes. */
export type JsonPath = readonly (string | number)[];

/** A complete JSON reply, read as much as a reader needs. */
export interface JsonDocument {
  /** The whole value. */
  value(): unknown;
  /** The value at `path`, or undefined where the path leads nowhere. */
  at(path: JsonPath): unknown;
}

export type JsonDocumentResult = { ok: true; document: JsonDocument } | { ok: false; error: string };

/** A value already parsed. */
export function parsedJsonDocument(value: unknown): JsonDocument {
  return new ParsedJsonDocument(value);
}

// A class, not an object literal with closures: one is made for every complete reply.
class ParsedJsonDocument implements JsonDocument {
  constructor(private readonly parsed: unknown) {}

  value(): unknown {
    return this.parsed;
  }

  at(path: JsonPath): unknown {
    return valueAt(this.parsed, path);
  }
}

function valueAt(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const step of path) {
    if (typeof step === 'number') {
      current = Array.isArray(current) && Number.isInteger(step) && step >= 0 ? current[step] : undefined;
    } else {
      current = isJsonObject(current) && Object.hasOwn(current, step) ? current[step] : undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * JSON bytes as a document, refused when they are not JSON or nest deeper than `maxDepth`. Read
 * `whole`, or shorter than `LARGE_STRING_BYTES` (where V8 parses faster than JavaScript can scan),
 * they are parsed at once; otherwise scanned (`scanJsonDocument`).
 */
export function readJsonDocument(
  bytes: Buffer,
  options: { maxDepth: number; whole: boolean },
): JsonDocumentResult {
  if (options.whole || bytes.length < LARGE_STRING_BYTES) {
    const parsed = parseJsonWithin(bytes, options);
    return parsed.ok ? { ok: true, document: parsedJsonDocument(parsed.value) } : parsed;
  }
  return scanJsonDocument(bytes, options);
}

/**
 * JSON bytes checked whole (`jsonSyntaxError`) but parsed only where read: `at` finds the path's
 * value by skipping over everything else and parses that value alone, so the usage of a reply of
 * megabytes (images, long text) costs one pass over its bytes instead of its whole parse.
 */
export function scanJsonDocument(bytes: Buffer, options: { maxDepth: number }): JsonDocumentResult {
  const error = jsonSyntaxError(bytes, options.maxDepth);
  return error === undefined ? { ok: true, document: new ScannedJsonDocument(bytes) } : { ok: false, error };
}

class ScannedJsonDocument implements JsonDocument {
  private parsed: { value: unknown } | undefined;

  constructor(private readonly bytes: Buffer) {}

  value(): unknown {
    this.parsed ??= { value: parseJsonInPieces(this.bytes) };
    return this.parsed.value;
  }

  at(path: JsonPath): unknown {
    if (this.parsed) return valueAt(this.parsed.value, path);
    const { bytes } = this;
    let start = skipJsonSpace(bytes, 0);
    for (const step of path) {
      const found =
        typeof step === 'number' ? elementStart(bytes, start, step) : memberStart(bytes, start, step);
      if (found < 0) return undefined;
      start = found;
    }
    return parseJsonInPieces(bytes.subarray(start, valueEnd(bytes, start)));
  }
}

// Everything below reads text `jsonSyntaxError` accepted, so it skips rather than checks.

/** Where the value of the object's member `name` starts (the last one, as `JSON.parse` keeps), or -1. */
function memberStart(bytes: Buffer, objectStart: number, name: string): number {
  if (bytes[objectStart] !== OPEN_OBJECT) return -1;
  let found = -1;
  let index = skipJsonSpace(bytes, objectStart + 1);
  while (bytes[index] === QUOTE) {
    const nameEnd = bytesStringEnd(bytes, index + 1);
    const valueStart = skipJsonSpace(bytes, skipJsonSpace(bytes, nameEnd + 1) + 1);
    if (memberNameIs(bytes, index, nameEnd, name)) found = valueStart;
    index = skipJsonSpace(bytes, valueEnd(bytes, valueStart));
    if (bytes[index] !== COMMA) break;
    index = skipJsonSpace(bytes, index + 1);
  }
  return found;
}

/** Whether the member name quoted from `quote` to `closingQuote` reads `name`. */
export function memberNameIs(bytes: Buffer, quote: number, closingQuote: number, name: string): boolean {
  const text = bytes.toString('utf8', quote + 1, closingQuote);
  if (text.indexOf('\\') < 0) return text === name;
  return JSON.parse(bytes.toString('utf8', quote, closingQuote + 1)) === name;
}

/** Where the array's element `position` starts, or -1. */
function elementStart(bytes: Uint8Array, arrayStart: number, position: number): number {
  if (bytes[arrayStart] !== OPEN_ARRAY || !Number.isInteger(position) || position < 0) return -1;
  let index = skipJsonSpace(bytes, arrayStart + 1);
  if (bytes[index] === CLOSE_ARRAY) return -1;
  for (let element = 0; element < position; element++) {
    index = skipJsonSpace(bytes, valueEnd(bytes, index));
    if (bytes[index] !== COMMA) return -1;
    index = skipJsonSpace(bytes, index + 1);
  }
  return index;
}
