import type { ModelPricing } from './model-pricing';

/** The models whose id holds every word of the search, in any case; all of them for an empty search. */
export function filterPricing(models: readonly ModelPricing[], search: string): readonly ModelPricing[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return models;
  return models.filter((entry) => {
    const id = entry.model.toLowerCase();
    return words.every((word) => id.includes(word));
  });
}
