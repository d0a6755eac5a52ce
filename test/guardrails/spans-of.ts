import type { PiiDetector } from '../../src/guardrails/pii/pii-match.js';

/** The substrings a detector finds, in text order. */
export function spansOf(detect: PiiDetector, text: string): string[] {
  return detect(text)
    .sort((left, right) => left.start - right.start)
    .map((match) => text.slice(match.start, match.end));
}
