import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayServices } from '../services.js';
import { PublicPricing } from './public-pricing.js';

const DEFAULT_GROUP = 'default';

/**
 * `GET /api/pricing` (admin-api section 15): the default group's prices to anyone, or the signed-in
 * user's group's; when `pricing_public` is false, only to a signed-in caller. Served from memory.
 */
export function registerPricingRoute(app: FastifyInstance, services: GatewayServices): void {
  const pricing = new PublicPricing(services.catalog);
  app.get('/pricing', async (request) => {
    const identity = request.consoleCaller?.identity;
    if (!identity && !services.settings.get().pricing_public) throw new GatewayError('admin_unauthorized');
    const group = identity?.kind === 'user' ? identity.user.group : DEFAULT_GROUP;
    return { data: pricing.forGroup(group) };
  });
}
