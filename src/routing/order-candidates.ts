import type { RoutableChannel } from './routing-catalog.js';

/**
 * The order in which channels are tried (admin-api section 4): higher priority first; within one
 * priority a weighted random order, so each channel leads in proportion to its weight
 * (Efraimidis-Spirakis sampling without replacement). Weight 0 channels come last in their tier.
 */
export function orderCandidates(
  channels: readonly RoutableChannel[],
  random: () => number = Math.random,
): RoutableChannel[] {
  const keyed = channels.map((channel) => ({
    channel,
    key: channel.weight > 0 ? Math.pow(random(), 1 / channel.weight) : -1,
  }));
  keyed.sort((a, b) => b.channel.priority - a.channel.priority || b.key - a.key);
  return keyed.map((entry) => entry.channel);
}
