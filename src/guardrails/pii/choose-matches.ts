import type { PiiMatch } from './pii-match.js';

/**
 * The matches to replace, in text order and without overlaps: where matches overlap, the one that
 * starts first wins, then the longest, then the one listed first (detectors are listed from the
 * most specific shape to the most general).
 */
export function chooseMatches(matches: readonly PiiMatch[]): PiiMatch[] {
  const ordered = matches
    .map((match, order) => ({ match, order }))
    .sort(
      (left, right) =>
        left.match.start - right.match.start || right.match.end - left.match.end || left.order - right.order,
    );
  const chosen: PiiMatch[] = [];
  let reached = 0;
  for (const { match } of ordered) {
    if (match.start < reached || match.end <= match.start) continue;
    chosen.push(match);
    reached = match.end;
  }
  return chosen;
}
