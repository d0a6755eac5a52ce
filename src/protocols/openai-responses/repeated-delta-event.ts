/**
 * The delta events of one block of a Responses stream are the same event but for two values: their
 * `sequence_number` and their `delta` string. Once one such event was written, the next are written
 * around those two, without building the event's object and serialising it again.
 */
export class RepeatedDeltaEvent {
  /** The learnt event up to its number, from its number to its delta's string, and after that. */
  private head: string | undefined;
  private middle = '';
  private tail = '';

  /** The learnt event with `sequence` and `delta` in place of its own; undefined while none is learnt. */
  withDelta(sequence: number, delta: string): string | undefined {
    return this.head === undefined
      ? undefined
      : this.head + sequence + this.middle + JSON.stringify(delta) + this.tail;
  }

  /**
   * Learns `event`, written with `sequence` and `delta`. It learns nothing, and forgets what it knew,
   * unless `"sequence_number":` and `"delta":` each occur in it once, the first followed by that
   * number (and then a comma or brace) and the second, after it, by that string, as
   * `JSON.stringify` writes them.
   */
  learn(event: string, sequence: number, delta: string): void {
    this.head = undefined;
    const numberAt = onlyIndexOf(event, '"sequence_number":');
    const deltaAt = onlyIndexOf(event, '"delta":');
    if (numberAt < 0 || deltaAt < 0) return;
    const number = String(sequence);
    const numberStart = numberAt + '"sequence_number":'.length;
    const text = JSON.stringify(delta);
    const textStart = deltaAt + '"delta":'.length;
    const numberEnd = numberStart + number.length;
    if (!event.startsWith(number, numberStart) || !',}'.includes(event.charAt(numberEnd))) return;
    if (!event.startsWith(text, textStart) || textStart < numberEnd) return;
    this.head = event.slice(0, numberStart);
    this.middle = event.slice(numberEnd, textStart);
    this.tail = event.slice(textStart + text.length);
  }
}

/** Where `part` occurs in `text` if it occurs exactly once; -1 otherwise. */
function onlyIndexOf(text: string, part: string): number {
  const at = text.indexOf(part);
  return at >= 0 && text.indexOf(part, at + 1) < 0 ? at : -1;
}
