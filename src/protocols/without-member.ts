import { memberNameIs } from './json-document.js';
import { COMMA, OPEN_OBJECT, QUOTE, skipJsonSpace } from './json-syntax.js';
import { valueEnd } from './parse-json-within.js';
import { bytesStringEnd } from './wire-json.js';

/**
 * `bytes` (a JSON object the caller already parsed successfully) without its top-level member
 * `name` (every occurrence), the rest byte for byte. Returns `bytes` itself when the member is
 * absent.
 *
 * A removed member takes the comma after it along, and the whitespace up to the next member;
 * members after the last kept one take the comma and whitespace before them instead, so neither a
 * leading nor a trailing comma is left. Nested objects and string values are skipped whole.
 */
export function withoutMember(bytes: Buffer, name: string): Buffer {
  const objectStart = skipJsonSpace(bytes, byteOrderMarkEnd(bytes));
  if (bytes[objectStart] !== OPEN_OBJECT) return bytes;
  const removed: Span[] = [];
  /** Where the run of removed members being read starts, or -1 outside one. */
  let runStart = -1;
  /** Where the value of the last kept member ends, or -1 before the first. */
  let keptValueEnd = -1;
  let memberValueEnd = -1;
  let index = skipJsonSpace(bytes, objectStart + 1);
  while (bytes[index] === QUOTE) {
    const memberStart = index;
    const nameEnd = bytesStringEnd(bytes, index + 1);
    const valueStart = skipJsonSpace(bytes, skipJsonSpace(bytes, nameEnd + 1) + 1);
    memberValueEnd = valueEnd(bytes, valueStart);
    if (memberNameIs(bytes, memberStart, nameEnd, name)) {
      if (runStart < 0) runStart = memberStart;
    } else {
      if (runStart >= 0) removed.push({ start: runStart, end: memberStart });
      runStart = -1;
      keptValueEnd = memberValueEnd;
    }
    index = skipJsonSpace(bytes, memberValueEnd);
    if (bytes[index] !== COMMA) break;
    index = skipJsonSpace(bytes, index + 1);
  }
  if (runStart >= 0)
    removed.push({ start: keptValueEnd >= 0 ? keptValueEnd : runStart, end: memberValueEnd });
  return removed.length === 0 ? bytes : withoutSpans(bytes, removed);
}

interface Span {
  start: number;
  end: number;
}

/** `bytes` without the spans, which are in order and do not overlap. */
function withoutSpans(bytes: Buffer, spans: readonly Span[]): Buffer {
  const pieces: Buffer[] = [];
  let kept = 0;
  for (const span of spans) {
    pieces.push(bytes.subarray(kept, span.start));
    kept = span.end;
  }
  pieces.push(bytes.subarray(kept));
  return Buffer.concat(pieces);
}

/** A UTF-8 byte order mark is no JSON, but some clients send one before the text. */
function byteOrderMarkEnd(bytes: Buffer): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
