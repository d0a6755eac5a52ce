import { jsonSyntaxError } from './json-syntax.js';
import { bytesStringEnd, isJsonObject, parseJsonWithin } from './wire-json.js';

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
  return {
    value: () => value,
    at(path) {
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
    },
  };
}

/**
 * From this length on, the string of a JSON text is a large object in V8 (128 KiB), and making it
 * (`toString`) and parsing it cost about twenty times what they cost just below (1.3 ms against 63
 * µs for 131 KB on a 2-core virtual machine, where the scan takes about 1 ns a byte).
 */
const LARGE_TEXT_BYTES = 128 * 1024;

/**
 * JSON bytes as a document, refused when they are not JSON or nest deeper than `maxDepth`. Read
 * `whole`, or shorter than `LARGE_TEXT_BYTES` (where V8 parses faster than JavaScript can scan),
 * they are parsed at once; otherwise scanned (`scanJsonDocument`).
 */
export function readJsonDocument(
  bytes: Buffer,
  options: { maxDepth: number; whole: boolean },
): JsonDocumentResult {
  if (options.whole || bytes.length < LARGE_TEXT_BYTES) {
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
    this.parsed ??= { value: JSON.parse(this.bytes.toString('utf8')) };
    return this.parsed.value;
  }

  at(path: JsonPath): unknown {
    if (this.parsed) return parsedJsonDocument(this.parsed.value).at(path);
    const { bytes } = this;
    let start = skipSpace(bytes, 0);
    for (const step of path) {
      const found =
        typeof step === 'number' ? elementStart(bytes, start, step) : memberStart(bytes, start, step);
      if (found < 0) return undefined;
      start = found;
    }
    return JSON.parse(bytes.toString('utf8', start, valueEnd(bytes, start)));
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

// Everything below reads text `jsonSyntaxError` accepted, so it skips rather than checks.

function skipSpace(bytes: Uint8Array, from: number): number {
  let index = from;
  for (;;) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return index;
    index++;
  }
}

/** Where the value starting at `start` ends (the index after it). */
function valueEnd(bytes: Uint8Array, start: number): number {
  const first = bytes[start];
  if (first === QUOTE) return bytesStringEnd(bytes, start + 1) + 1;
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let index = start + 1;
    for (;;) {
      const byte = bytes[index];
      if (
        byte === undefined ||
        byte === COMMA ||
        byte === CLOSE_OBJECT ||
        byte === CLOSE_ARRAY ||
        byte <= 0x20
      )
        return index;
      index++;
    }
  }
  let depth = 0;
  for (let index = start; ; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) index = bytesStringEnd(bytes, index + 1);
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return index + 1;
  }
}

/** Where the value of the object's member `name` starts (the last one, as `JSON.parse` keeps), or -1. */
function memberStart(bytes: Buffer, objectStart: number, name: string): number {
  if (bytes[objectStart] !== OPEN_OBJECT) return -1;
  let found = -1;
  let index = skipSpace(bytes, objectStart + 1);
  while (bytes[index] === QUOTE) {
    const nameEnd = bytesStringEnd(bytes, index + 1);
    const valueStart = skipSpace(bytes, skipSpace(bytes, nameEnd + 1) + 1);
    if (memberNameIs(bytes, index, nameEnd, name)) found = valueStart;
    index = skipSpace(bytes, valueEnd(bytes, valueStart));
    if (bytes[index] !== COMMA) break;
    index = skipSpace(bytes, index + 1);
  }
  return found;
}

/** Whether the member name quoted from `quote` to `closingQuote` reads `name`. */
function memberNameIs(bytes: Buffer, quote: number, closingQuote: number, name: string): boolean {
  const text = bytes.toString('utf8', quote + 1, closingQuote);
  if (text.indexOf('\\') < 0) return text === name;
  return JSON.parse(bytes.toString('utf8', quote, closingQuote + 1)) === name;
}

/** Where the array's element `position` starts, or -1. */
function elementStart(bytes: Uint8Array, arrayStart: number, position: number): number {
  if (bytes[arrayStart] !== OPEN_ARRAY || !Number.isInteger(position) || position < 0) return -1;
  let index = skipSpace(bytes, arrayStart + 1);
  if (bytes[index] === CLOSE_ARRAY) return -1;
  for (let element = 0; element < position; element++) {
    index = skipSpace(bytes, valueEnd(bytes, index));
    if (bytes[index] !== COMMA) return -1;
    index = skipSpace(bytes, index + 1);
  }
  return index;
}
