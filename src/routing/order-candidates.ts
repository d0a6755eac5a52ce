/**
 * The order in which channels (admin-api section 4), or a virtual model's targets (11.2), are
 * tried: higher priority first; within one priority a weighted random order, so each leads in
 * proportion to its weight (Efraimidis-Spirakis sampling without replacement). Weight 0 comes last
 * in its tier.
 */
export function orderCandidates<Candidate extends { priority: number; weight: number }>(
  candidates: readonly Candidate[],
  random: () => number = Math.random,
): Candidate[] {
  const keyed = candidates.map((candidate) => ({
    candidate,
    key: candidate.weight > 0 ? Math.pow(random(), 1 / candidate.weight) : -1,
  }));
  keyed.sort((a, b) => b.candidate.priority - a.candidate.priority || b.key - a.key);
  return keyed.map((entry) => entry.candidate);
}
