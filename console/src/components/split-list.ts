/**
 * Entries typed or pasted into a list field: split on commas, whitespace and new lines, trimmed,
 * empty ones dropped, duplicates kept once (first wins).
 */
export function splitList(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const entry of entries) {
    for (const part of entry.split(/[\s,]+/)) {
      if (part === '' || seen.has(part)) continue;
      seen.add(part);
      result.push(part);
    }
  }
  return result;
}
