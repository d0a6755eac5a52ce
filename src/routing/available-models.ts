import type { Principal } from '../auth/principal.js';
import type { EndpointType } from './endpoint-type.js';
import type { RoutableChannel, RoutingCatalog } from './routing-catalog.js';

export interface AvailableModel {
  id: string;
  /** Type of the highest-priority channel serving the model; `virtual` for a virtual model. */
  ownedBy: string;
  /** Union of the endpoint types of every channel serving the model, in catalogue order. */
  endpointTypes: EndpointType[];
}

/**
 * Models a key may use (client-api 4.1): priced, served by an enabled channel of the key's group,
 * and on the key's Model Limits when it has them; and the virtual models (admin-api section 11.2)
 * on its Model Limits of which the group reaches at least one priced target, with the endpoint
 * types of those targets. Sorted by id.
 */
export function listAvailableModels(
  catalog: RoutingCatalog,
  principal: Pick<Principal, 'group' | 'modelLimits'>,
): AvailableModel[] {
  const models: AvailableModel[] = [];
  const served = catalog.modelsOfGroup(principal.group);
  const allowed = (id: string) => !principal.modelLimits || principal.modelLimits.has(id);
  for (const [id, channels] of served) {
    if (!catalog.price(id) || !allowed(id)) continue;
    const endpointTypes = new Set<EndpointType>();
    addEndpointTypes(endpointTypes, id, channels);
    models.push({ id, ownedBy: channels[0]?.type ?? '', endpointTypes: [...endpointTypes] });
  }
  for (const [name, virtual] of catalog.allVirtualModels()) {
    if (served.has(name) || !allowed(name)) continue;
    const endpointTypes = new Set<EndpointType>();
    let reachable = false;
    for (const { model } of virtual.targets) {
      const channels = served.get(model);
      if (!channels || !catalog.price(model)) continue;
      reachable = true;
      addEndpointTypes(endpointTypes, model, channels);
    }
    if (reachable) models.push({ id: name, ownedBy: 'virtual', endpointTypes: [...endpointTypes] });
  }
  return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function addEndpointTypes(
  types: Set<EndpointType>,
  model: string,
  channels: readonly RoutableChannel[],
): void {
  for (const channel of channels) for (const type of channel.endpointTypesFor(model)) types.add(type);
}
