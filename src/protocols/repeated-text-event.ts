import { isStringToken, parseJson, textStringEnd } from './wire-json.js';

const QUOTE = 0x22;
const COLON = 0x3a;

/**
 * A stream of text deltas sends the same event again and again but for its text: the same id,
 * model and members around one string. Once such an event was parsed whole, the next ones that
 * match it around that string are read by parsing the string alone: an event that is a valid JSON
 * object with one string token put in place of another is a valid JSON object, and reads the same
 * but for that string. Anything else (another member, a finish, usage, a text escaped so that the
 * event does not match) is parsed whole as before. An encoder's stream is the same the other way:
 * once it wrote such an event, the next is the same text around another string (`withText`).
 *
 * Some upstreams also give every delta a string member of their own that changes each time and
 * that nothing reads (OpenAI's `obfuscation`, random padding against size side channels). Named as
 * `unread`, it is a second hole: the next events match around both strings, and the unread one is
 * only checked to be a valid string token, not parsed.
 */
export class RepeatedTextEvent {
  /** The learnt event before its first string's opening quote, and after its last's closing quote. */
  private opening: string | undefined;
  private closing = '';
  /** With an unread member: the learnt event between the two strings, and which comes first. */
  private middle: string | undefined;
  private textFirst = true;

  constructor(private readonly unread?: string) {}

  /** The text of `data` when it is the learnt event but for its text (and unread string); undefined otherwise. */
  textOf(data: string): string | undefined {
    const { opening, closing, middle } = this;
    if (opening === undefined) return undefined;
    const end = data.length - closing.length;
    if (end < opening.length + 2 || !data.startsWith(opening) || !data.endsWith(closing)) return undefined;
    let textStart = opening.length;
    let textEnd = end;
    if (middle !== undefined) {
      // Each string is checked below: the text parsed, the unread one scanned.
      const firstEnd = textStringEnd(data, textStart + 1) + 1;
      const secondStart = firstEnd + middle.length;
      if (!data.startsWith(middle, firstEnd)) return undefined;
      const unreadIsString = this.textFirst
        ? isStringToken(data, secondStart, end)
        : isStringToken(data, textStart, firstEnd);
      if (!unreadIsString) return undefined;
      if (this.textFirst) textEnd = firstEnd;
      else textStart = secondStart;
    }
    const parsed = parseJson(data.slice(textStart, textEnd));
    return parsed.ok && typeof parsed.value === 'string' ? parsed.value : undefined;
  }

  /** The learnt event with `text` in place of its text; undefined while none is learnt, or one with an unread string is. */
  withText(text: string): string | undefined {
    return this.opening === undefined || this.middle !== undefined
      ? undefined
      : this.opening + JSON.stringify(text) + this.closing;
  }

  /**
   * Learns `data`, an event parsed whole that reads as nothing but a text delta, around the string
   * of its member `name`, whose value it read as `text`. It learns nothing, and forgets what it
   * knew, unless `"name"` occurs in `data` once, right before a colon and that very text: then no
   * other member or value can be taken for it (in valid JSON a quote inside a string is escaped).
   * The unread member, when `data` has it, must occur once too, with a string.
   */
  learn(data: string, name: string, text: string): void {
    this.opening = undefined;
    const open = stringMemberAt(data, name);
    if (open < 0) return;
    const close = textStringEnd(data, open + 1);
    if (close === data.length) return;
    const token = parseJson(data.slice(open, close + 1));
    if (!token.ok || token.value !== text) return;
    const unreadOpen = this.unread === undefined ? -1 : stringMemberAt(data, this.unread);
    if (unreadOpen < 0) {
      if (this.unread !== undefined && data.includes(`"${this.unread}"`)) return;
      this.middle = undefined;
      this.opening = data.slice(0, open);
      this.closing = data.slice(close + 1);
      return;
    }
    const unreadClose = textStringEnd(data, unreadOpen + 1);
    if (!isStringToken(data, unreadOpen, unreadClose + 1)) return;
    this.textFirst = open < unreadOpen;
    const [first, firstClose, second, secondClose] = this.textFirst
      ? [open, close, unreadOpen, unreadClose]
      : [unreadOpen, unreadClose, open, close];
    this.opening = data.slice(0, first);
    this.middle = data.slice(firstClose + 1, second);
    this.closing = data.slice(secondClose + 1);
  }
}

/**
 * Where the string value of the member `"name":` opens, when `"name"` occurs in `data` once and is
 * followed by a colon and a quote; -1 otherwise.
 */
function stringMemberAt(data: string, name: string): number {
  const quoted = `"${name}"`;
  const at = data.indexOf(quoted);
  if (at < 0 || data.indexOf(quoted, at + 1) >= 0) return -1;
  const open = at + quoted.length + 1;
  return data.charCodeAt(open - 1) === COLON && data.charCodeAt(open) === QUOTE ? open : -1;
}
