import type { FastifyInstance } from 'fastify';
import { settingsSchema } from '../config/settings-schema.js';
import type { GatewayServices } from '../services.js';
import { refuseIfManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { serializeSettings } from './serialize-settings.js';

const settingsChangesSchema = settingsSchema.partial();

/** `/api/settings` (admin-api section 2, Settings): effective values, changed live. */
export function registerSettingRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/settings', async () => serializeSettings(services.settings.get()));

  app.patch('/settings', async (request) => {
    const changes = parseBody(request.body, settingsChangesSchema);
    for (const name of Object.keys(changes)) await refuseIfManaged(services, 'settings', name, 'setting');
    await services.settings.update(changes);
    await services.changes.publish('settings');
    return serializeSettings(services.settings.get());
  });
}
