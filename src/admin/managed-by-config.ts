import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayServices } from '../services.js';
import type { ManagedKind } from '../store/managed-entities-repository.js';

/** Who owns an entity (admin-api section 13): the configuration file, or the API and console. */
export type Managed = 'config' | 'api';

/**
 * Refuses a write of an entity the configuration file manages: 409 `managed_by_config`, naming
 * the file, whose next apply would undo the write.
 */
export async function refuseIfManaged(
  services: GatewayServices,
  kind: ManagedKind,
  naturalKey: string,
  resource: string,
): Promise<void> {
  const managed = services.repositories.managedEntities;
  if (!(await managed.isManaged(kind, naturalKey))) return;
  const file = (await managed.configFile()) ?? 'given by GATEWAY_CONFIG_FILE';
  throw new GatewayError('managed_by_config', { resource, id: naturalKey, file });
}

/** Entities as reads show them, each with who manages it. */
export async function withManaged<Entity extends object>(
  services: GatewayServices,
  kind: ManagedKind,
  entities: readonly Entity[],
  naturalKey: (entity: Entity) => string,
): Promise<(Entity & { managed: Managed })[]> {
  const managed = await services.repositories.managedEntities.keysOf(kind);
  return entities.map((entity) => ({
    ...entity,
    managed: managed.has(naturalKey(entity)) ? 'config' : 'api',
  }));
}

/** One entity as reads show it. */
export async function oneWithManaged<Entity extends object>(
  services: GatewayServices,
  kind: ManagedKind,
  entity: Entity,
  naturalKey: string,
): Promise<Entity & { managed: Managed }> {
  const managed = await services.repositories.managedEntities.isManaged(kind, naturalKey);
  return { ...entity, managed: managed ? 'config' : 'api' };
}

/** An entity the API just wrote: it passed `refuseIfManaged`, so the API owns it. */
export function ownedByApi<Entity extends object>(entity: Entity): Entity & { managed: Managed } {
  return { ...entity, managed: 'api' };
}
