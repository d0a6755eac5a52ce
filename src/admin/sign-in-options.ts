import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';

/**
 * `GET /api/auth/options`: what the sign-in page offers before anyone signs in (admin-api section
 * 15): whether and how people may sign up, whether the price list is public, and whether a
 * signed-in user can top up online. Settings only, nothing secret.
 */
export function registerSignInOptionsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.get('/auth/options', async () => {
    const settings = services.settings.get();
    return {
      registration: settings.registration,
      pricing_public: settings.pricing_public,
      topup: settings.stripe_secret_key !== null,
      topup_min_usd: settings.topup_min_usd,
    };
  });
}
