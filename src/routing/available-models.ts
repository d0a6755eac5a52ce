import type { Principal } from '../auth/principal.js';
import type { EndpointType } from './endpoint-type.js';
import type { RoutingCatalog } from './routing-catalog.js';

export interface AvailableModel {
  id: string;
  /** Type of the highest-priority channel serving the model. */
  ownedBy: string;
  /** Union of the endpoint types of every channel serving the model, in catalogue order. */
  endpointTypes: EndpointType[];
}

/**
 * Models a key may use (client-api 4.1): priced, served by an enabled channel of the key's group,
 * and on the key's Model Limits when it has them. Sorted by id.
 */
export function listAvailableModels(catalog: RoutingCatalog, principal: Principal): AvailableModel[] {
  const models: AvailableModel[] = [];
  for (const [id, channels] of catalog.modelsOfGroup(principal.group)) {
    if (!catalog.price(id)) continue;
    if (principal.modelLimits && !principal.modelLimits.has(id)) continue;
    const endpointTypes = new Set<EndpointType>();
    for (const channel of channels) for (const type of channel.endpointTypesFor(id)) endpointTypes.add(type);
    models.push({ id, ownedBy: channels[0]?.type ?? '', endpointTypes: [...endpointTypes] });
  }
  return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
