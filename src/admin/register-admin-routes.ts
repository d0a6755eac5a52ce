import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { authorizeAdmin } from './authorize-admin.js';
import { registerChannelRoutes } from './channels.js';
import { registerGroupRoutes } from './groups.js';
import { registerKeyRoutes } from './keys.js';
import { registerLogRoutes } from './logs.js';
import { registerPriceRoutes } from './prices.js';
import { registerSettingRoutes } from './settings.js';
import { registerUserRoutes } from './users.js';

/** The management API (admin-api.md sections 1 and 2), registered inside the `/api` plugin. */
export async function registerAdminRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  app.addHook('onRequest', authorizeAdmin(services.adminAuth));
  registerUserRoutes(app, services);
  registerKeyRoutes(app, services);
  registerChannelRoutes(app, services);
  registerPriceRoutes(app, services);
  registerGroupRoutes(app, services);
  registerSettingRoutes(app, services);
  registerLogRoutes(app, services);
}
