import type { VirtualModelRecord } from '../store/virtual-models-repository.js';

/** A virtual model as `/api/virtual-models` shows it (admin-api section 11.2). */
export function serializeVirtualModel(model: VirtualModelRecord) {
  return {
    name: model.name,
    targets: model.targets.map(({ model: target, priority, weight }) => ({
      model: target,
      priority,
      weight,
    })),
    strategy: model.strategy,
    fallback_on: model.fallbackOn,
    sticky: model.sticky,
  };
}
