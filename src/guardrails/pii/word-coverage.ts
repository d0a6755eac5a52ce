/** A run of letters that reads as a word inside a larger piece: `Tool`, `stream`, `HTTPS`. */
const WORD = /[A-Z][a-z]{3,}|[a-z]{4,}|[A-Z]{5,}/g;
/** A piece between separators that is all one word or one number: `is`, `Type`, `REC`, `2024`. */
const WHOLE_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+|\d+)$/;
const PIECES = /[A-Za-z0-9]+|[^A-Za-z0-9]+/g;

/**
 * The share of a token's characters that read as words: pieces between separators (`_`, `-`, `/`,
 * `+`) that are one word or number of two or more characters, runs that look like words inside the
 * other pieces, and the single separators between them. Identifiers and paths score high
 * (`BetaClearToolUses20250919EditResponse` 0.78, `Type_predicate_0_is_not_assignable_to_1` 0.95);
 * random base64 scores low (its median is about 0.25).
 */
export function wordCoverage(token: string): number {
  if (token.length === 0) return 0;
  let covered = 0;
  for (const [piece] of token.matchAll(PIECES)) {
    if (!/[A-Za-z0-9]/.test(piece)) {
      if (piece.length === 1) covered += 1;
    } else if (piece.length >= 2 && WHOLE_WORD.test(piece)) {
      covered += piece.length;
    } else {
      for (const [word] of piece.matchAll(WORD)) covered += word.length;
    }
  }
  return covered / token.length;
}
