import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';

/**
 * `GET /api/config-file`: the file that manages entities (admin-api section 13), or null, and the
 * settings it declares, which `GET /api/settings` shows as plain values. The console reads it to
 * show what it may not change, and where to change it instead.
 */
export function registerConfigFileRoute(app: FastifyInstance, services: GatewayServices): void {
  app.get('/config-file', async () => {
    const managed = services.repositories.managedEntities;
    return {
      file: await managed.configFile(),
      settings: [...(await managed.keysOf('settings'))].sort(),
    };
  });
}
