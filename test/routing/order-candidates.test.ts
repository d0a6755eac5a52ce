import { expect, test } from 'vitest';
import { orderCandidates } from '../../src/routing/order-candidates.js';
import type { RoutableChannel } from '../../src/routing/routing-catalog.js';

const channel = (id: number, priority: number, weight: number): RoutableChannel => ({
  id,
  name: `c${id}`,
  type: 'openai',
  baseUrl: null,
  keys: ['k'],
  models: ['m'],
  modelMapping: {},
  groups: ['default'],
  priority,
  weight,
  endpoints: null,
  config: {},
  status: 'enabled',
  createdAt: 0,
  endpointTypes: ['openai'],
  endpointTypesFor: () => ['openai'],
});

test('higher priority always comes first', () => {
  const ordered = orderCandidates([channel(1, 0, 100), channel(2, 5, 1), channel(3, 10, 1)]);
  expect(ordered.map((c) => c.id)).toEqual([3, 2, 1]);
});

test('within a priority each channel leads in proportion to its weight', () => {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const leads = new Map<number, number>();
  const channels = [channel(1, 0, 1), channel(2, 0, 3), channel(3, 0, 0)];
  for (let round = 0; round < 8000; round += 1) {
    const ordered = orderCandidates(channels, random);
    leads.set(ordered[0]!.id, (leads.get(ordered[0]!.id) ?? 0) + 1);
    expect(ordered.at(-1)!.id).toBe(3);
  }
  const share = (leads.get(2) ?? 0) / 8000;
  expect(share).toBeGreaterThan(0.72);
  expect(share).toBeLessThan(0.78);
  expect(leads.get(3)).toBeUndefined();
});
