/** The kinds of personal data and secrets the redactor knows, as named in `[REDACTED:<kind>]`. */
export type PiiKind = 'email' | 'phone' | 'card' | 'iban' | 'secret';

/** A span `[start, end)` of a text that a detector judged to be one kind of personal data or secret. */
export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
}

/** A detector: every span of `text` it recognises, in any order; overlaps are settled by the caller. */
export type PiiDetector = (text: string) => PiiMatch[];
