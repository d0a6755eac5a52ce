/**
 * Every detector needs a digit, an `@` or a run of at least 20 token characters (the shortest
 * digit-free secret shapes: an AWS key id, a Slack token, a long bearer token). A text with none
 * of these, such as most prose, is left alone after one quick scan.
 */
const CLUE = /[\d@]|[\w.+/=~-]{20}/;

export function mightContainPii(text: string): boolean {
  return CLUE.test(text);
}
