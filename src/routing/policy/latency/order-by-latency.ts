/**
 * The share of orders in which a random other member of the ordered group leads instead of the
 * fastest (admin-api 11.5, 11.2 `strategy: latency`). Without it a channel that was slow is never
 * tried again and its recovery goes unseen. At 0.05 nineteen of twenty requests still take the
 * fastest, and with two channels the other one is sampled about once every twenty requests.
 */
export const EXPLORATION_SHARE = 0.05;

/**
 * Reorders `items[0, count)` in place by `keys[0, count)`, lowest first; equal keys keep their
 * order, so ties (and pairs without an estimate) keep the section-4 weighted order they arrived in.
 * Then, with probability `EXPLORATION_SHARE`, a random other member of that range is moved to the
 * front, the rest keeping the latency order as its fallbacks. Keys move with their items; items
 * from `count` on are untouched.
 *
 * Insertion sort: the ranges are a handful of channels or targets, it is stable, and it allocates
 * nothing, as befits a function that runs on every request.
 */
export function orderByLatency<Item>(options: {
  items: Item[];
  keys: Float64Array;
  count: number;
  random: () => number;
}): void {
  const { items, keys, count, random } = options;
  for (let index = 1; index < count; index += 1) {
    const item = items[index] as Item;
    const key = keys[index] as number;
    let slot = index;
    while (slot > 0 && (keys[slot - 1] as number) > key) {
      items[slot] = items[slot - 1] as Item;
      keys[slot] = keys[slot - 1] as number;
      slot -= 1;
    }
    items[slot] = item;
    keys[slot] = key;
  }
  if (count < 2 || random() >= EXPLORATION_SHARE) return;
  const explored = Math.min(count - 1, 1 + Math.floor(random() * (count - 1)));
  const leader = items[explored] as Item;
  const leaderKey = keys[explored] as number;
  for (let slot = explored; slot > 0; slot -= 1) {
    items[slot] = items[slot - 1] as Item;
    keys[slot] = keys[slot - 1] as number;
  }
  items[0] = leader;
  keys[0] = leaderKey;
}
