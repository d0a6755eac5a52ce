import { isStringToken, numberTokenEnd, parseJson, textStringEnd } from './wire-json.js';

const QUOTE = 0x22;
const COLON = 0x3a;

/**
 * The random padding OpenAI adds to every delta of a chat completions or Responses stream by
 * default (`stream_options.include_obfuscation`, against size side channels); nothing reads it.
 */
export const OPENAI_OBFUSCATION = 'obfuscation';

/** The padding of letters Bedrock adds to every event payload, for the same reason; nothing reads it. */
export const BEDROCK_PADDING = 'p';

/** What stands in a hole of a learnt event: the text read, or a string or number nothing reads. */
type Hole = 'text' | 'unread string' | 'unread number';

/**
 * A stream of text deltas sends the same event again and again but for its text: the same id,
 * model and members around one string. Once such an event was parsed whole, the next ones that
 * match it around that string are read by parsing the string alone: an event that is a valid JSON
 * object with one string token put in place of another is a valid JSON object, and reads the same
 * but for that string. Anything else (another member, a finish, usage, a text escaped so that the
 * event does not match) is parsed whole as before. An encoder's stream is the same the other way:
 * once it wrote such an event, the next is the same text around another string (`withText`).
 *
 * Some events also carry members that change every time and that the reader does not read:
 * OpenAI's `obfuscation` (random padding against size side channels) and a Responses event's
 * `sequence_number`. Named as `unread`, each is a hole of its own: the next events match around all
 * of them, and an unread value is only checked to be a valid token of the kind it was (a string or
 * a number), never parsed.
 */
export class RepeatedTextEvent {
  /** The learnt event around its holes, in order: one part more than there are holes. */
  private parts: string[] | undefined;
  private holes: Hole[] = [];

  constructor(private readonly unread: readonly string[] = []) {}

  /** The text of `data` when it is the learnt event but for its holes; undefined otherwise. */
  textOf(data: string): string | undefined {
    const { parts, holes } = this;
    if (parts === undefined) return undefined;
    if (holes.length === 1) {
      const opening = parts[0]!;
      const closing = parts[1]!;
      const end = data.length - closing.length;
      if (end < opening.length + 2 || !partAt(data, opening, 0) || !partAt(data, closing, end))
        return undefined;
      const parsed = parseJson(data.slice(opening.length, end));
      return parsed.ok && typeof parsed.value === 'string' ? parsed.value : undefined;
    }
    return this.textAmongHoles(data, parts, holes);
  }

  /** `textOf` for an event learnt with unread holes beside its text. */
  private textAmongHoles(data: string, parts: string[], holes: Hole[]): string | undefined {
    if (!partAt(data, parts[0]!, 0)) return undefined;
    let at = parts[0]!.length;
    let textStart = 0;
    let textEnd = 0;
    for (let index = 0; index < holes.length; index++) {
      const hole = holes[index];
      // The text is scanned here and checked by its parse below.
      const end = hole === 'unread number' ? numberTokenEnd(data, at) : textStringEnd(data, at + 1) + 1;
      if (hole === 'unread number' ? end < 0 : hole === 'unread string' && !isStringToken(data, at, end))
        return undefined;
      if (hole === 'text') {
        textStart = at;
        textEnd = end;
      }
      const part = parts[index + 1]!;
      if (!partAt(data, part, end)) return undefined;
      at = end + part.length;
    }
    if (at !== data.length) return undefined;
    const parsed = parseJson(data.slice(textStart, textEnd));
    return parsed.ok && typeof parsed.value === 'string' ? parsed.value : undefined;
  }

  /** The learnt event with `text` in place of its text; undefined while none is learnt, or one with unread holes is. */
  withText(text: string): string | undefined {
    const { parts } = this;
    return parts === undefined || parts.length !== 2 ? undefined : parts[0] + JSON.stringify(text) + parts[1];
  }

  /**
   * Learns `data`, an event parsed whole that reads as nothing but a text delta, around the string
   * of its member `name`, whose value it read as `text`. It learns nothing, and forgets what it
   * knew, unless `"name"` occurs in `data` once, right before a colon and that very text: then no
   * other member or value can be taken for it (in valid JSON a quote inside a string is escaped).
   * Each unread member that `data` has must occur once too, with a string or a number.
   */
  learn(data: string, name: string, text: string): void {
    this.parts = undefined;
    const open = memberValueAt(data, name);
    if (open < 0 || data.charCodeAt(open) !== QUOTE) return;
    const close = textStringEnd(data, open + 1);
    if (close === data.length) return;
    const token = parseJson(data.slice(open, close + 1));
    if (!token.ok || token.value !== text) return;
    const found: [start: number, end: number, hole: Hole][] = [[open, close + 1, 'text']];
    for (const member of this.unread) {
      const start = memberValueAt(data, member);
      if (start === ABSENT) continue;
      if (start < 0) return;
      const isString = data.charCodeAt(start) === QUOTE;
      const end = isString ? textStringEnd(data, start + 1) + 1 : numberTokenEnd(data, start);
      if (isString ? !isStringToken(data, start, end) : end < 0) return;
      found.push([start, end, isString ? 'unread string' : 'unread number']);
    }
    if (found.length === 1) {
      this.holes = TEXT_ONLY;
      this.parts = [data.slice(0, open), data.slice(close + 1)];
      return;
    }
    found.sort((left, right) => left[0] - right[0]);
    const parts = [data.slice(0, found[0]![0])];
    found.forEach(([, end], index) => parts.push(data.slice(end, found[index + 1]?.[0] ?? data.length)));
    this.holes = found.map(([, , hole]) => hole);
    this.parts = parts;
  }
}

/**
 * Whether `data` has `part` at `at`, as a slice compared whole. In Node 20's V8, `startsWith` and
 * `endsWith` with a part sliced from another event cost several times as much: a chat tap's whole
 * work on a repeated chunk fell from about 0.72 to 0.24 µs without them.
 */
function partAt(data: string, part: string, at: number): boolean {
  return data.slice(at, at + part.length) === part;
}

const TEXT_ONLY: Hole[] = ['text'];
/** Space, tab, line feed and carriage return. */
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ABSENT = -2;

/**
 * Where the value of the member `"name":` starts, when `"name"` occurs in `data` once, before a
 * colon; `ABSENT` when it does not occur, -1 otherwise. JSON's whitespace may stand on either side
 * of the colon (Gemini writes a space after it).
 */
function memberValueAt(data: string, name: string): number {
  const quoted = `"${name}"`;
  const at = data.indexOf(quoted);
  if (at < 0) return ABSENT;
  if (data.indexOf(quoted, at + 1) >= 0) return -1;
  const colon = afterWhitespace(data, at + quoted.length);
  return data.charCodeAt(colon) === COLON ? afterWhitespace(data, colon + 1) : -1;
}

/** The index of the first character at or after `from` that is not JSON whitespace. */
function afterWhitespace(data: string, from: number): number {
  let at = from;
  while (JSON_WHITESPACE.has(data.charCodeAt(at))) at++;
  return at;
}
