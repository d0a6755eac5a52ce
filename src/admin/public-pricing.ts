import { serializePriceForGroup } from './serialize-price.js';
import { listAvailableModels } from '../routing/available-models.js';
import type { RoutingCatalog } from '../routing/routing-catalog.js';
import type { PriceRecord } from '../store/prices-repository.js';

export type PricingEntry = ReturnType<typeof pricingEntry>;

/**
 * The price list of `GET /api/pricing` (admin-api section 15), per group: every model a key of the
 * group could call (priced, served by an enabled channel of the group; virtual models that reach
 * such a target), with its prices times the group's ratio. Built from the routing catalog, in
 * memory, once per group and catalog generation: a change of prices, channels, groups or models
 * rebuilds the catalog, and the next call the list.
 */
export class PublicPricing {
  private generation = -1;
  private readonly byGroup = new Map<string, readonly PricingEntry[]>();

  constructor(private readonly catalog: RoutingCatalog) {}

  forGroup(group: string): readonly PricingEntry[] {
    if (this.generation !== this.catalog.generation) {
      this.byGroup.clear();
      this.generation = this.catalog.generation;
    }
    let entries = this.byGroup.get(group);
    if (!entries) this.byGroup.set(group, (entries = buildPricing(this.catalog, group)));
    return entries;
  }
}

function buildPricing(catalog: RoutingCatalog, group: string): PricingEntry[] {
  const ratio = catalog.groupRatio(group);
  const entries: PricingEntry[] = [];
  for (const model of listAvailableModels(catalog, { group, modelLimits: null })) {
    const virtual = model.ownedBy === 'virtual';
    const priced = virtual ? firstCallableTarget(catalog, model.id, group) : model.id;
    const price = priced === undefined ? undefined : catalog.price(priced);
    if (priced === undefined || !price) continue;
    const metadata = catalog.modelMetadata(model.id) ?? catalog.modelMetadata(priced);
    entries.push(
      pricingEntry({
        model: model.id,
        price,
        ratio,
        endpointTypes: model.endpointTypes,
        contextWindow: metadata?.contextWindow ?? null,
        capabilities: metadata?.capabilities ?? null,
        virtual,
      }),
    );
  }
  return entries;
}

/**
 * The target a virtual model tries first for the group: the highest priority, in the listed order
 * within one priority, among the priced targets an enabled channel of the group serves. Its price
 * is the one shown; another target may serve a request, at its own price.
 */
function firstCallableTarget(catalog: RoutingCatalog, name: string, group: string): string | undefined {
  const targets = catalog.virtualModel(name)?.targets ?? [];
  const callable = targets.filter(
    (target) => catalog.price(target.model) && catalog.channelsServing(target.model, group).length > 0,
  );
  // Array.prototype.sort is stable: equal priorities keep the listed order.
  return callable.sort((a, b) => b.priority - a.priority)[0]?.model;
}

function pricingEntry(entry: {
  model: string;
  price: PriceRecord;
  ratio: number;
  endpointTypes: readonly string[];
  contextWindow: number | null;
  capabilities: readonly string[] | null;
  virtual: boolean;
}) {
  return {
    ...serializePriceForGroup(entry.price, entry.ratio),
    model: entry.model,
    endpoint_types: [...entry.endpointTypes],
    context_window: entry.contextWindow,
    capabilities: entry.capabilities === null ? null : [...entry.capabilities],
    virtual: entry.virtual,
  };
}
