/** Whether a (channel, model) pair may take a request now, and from when it may. */
export interface PairAvailability {
  /** Healthy, or cooled down with its trial slot free (claiming the slot starts the attempt). */
  ready: boolean;
  /** Unix milliseconds when the pair's cooldown ends (or ended); 0 when healthy. */
  availableAtMs: number;
}

/**
 * The order in which to try candidates already sorted by priority and weight (admin-api section 7):
 * pairs that may be tried now keep their order and pairs still cooling down are left out; when no
 * pair may be tried now, every candidate is returned, soonest available first, so the request is
 * still attempted rather than answered with 503.
 */
export function orderByHealth<C>(
  candidates: readonly C[],
  availability: (candidate: C) => PairAvailability,
): C[] {
  const judged = candidates.map((candidate, index) => ({ candidate, index, ...availability(candidate) }));
  const ready = judged.filter((entry) => entry.ready);
  if (ready.length > 0) return ready.map((entry) => entry.candidate);
  judged.sort((a, b) => a.availableAtMs - b.availableAtMs || a.index - b.index);
  return judged.map((entry) => entry.candidate);
}
