import { parseJson, textStringEnd } from './wire-json.js';

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
 */
export class RepeatedTextEvent {
  /** The learnt event before its text's opening quote, and after its closing quote. */
  private opening: string | undefined;
  private closing = '';

  /** The text of `data` when it is the learnt event but for its text; undefined otherwise. */
  textOf(data: string): string | undefined {
    const { opening, closing } = this;
    if (opening === undefined) return undefined;
    const end = data.length - closing.length;
    if (end < opening.length + 2 || !data.startsWith(opening) || !data.endsWith(closing)) return undefined;
    const parsed = parseJson(data.slice(opening.length, end));
    return parsed.ok && typeof parsed.value === 'string' ? parsed.value : undefined;
  }

  /** The learnt event with `text` in place of its text; undefined while none is learnt. */
  withText(text: string): string | undefined {
    return this.opening === undefined ? undefined : this.opening + JSON.stringify(text) + this.closing;
  }

  /**
   * Learns `data`, an event parsed whole that reads as nothing but a text delta, around the string
   * of its member `name`, whose value it read as `text`. It learns nothing, and forgets what it
   * knew, unless `"name"` occurs in `data` once, right before a colon and that very text: then no
   * other member or value can be taken for it (in valid JSON a quote inside a string is escaped).
   */
  learn(data: string, name: string, text: string): void {
    this.opening = undefined;
    const quoted = `"${name}"`;
    const at = data.indexOf(quoted);
    if (at < 0 || data.indexOf(quoted, at + 1) >= 0) return;
    const open = at + quoted.length + 1;
    if (data.charCodeAt(open - 1) !== COLON || data.charCodeAt(open) !== QUOTE) return;
    const close = textStringEnd(data, open + 1);
    if (close === data.length) return;
    const token = parseJson(data.slice(open, close + 1));
    if (!token.ok || token.value !== text) return;
    this.opening = data.slice(0, open);
    this.closing = data.slice(close + 1);
  }
}
