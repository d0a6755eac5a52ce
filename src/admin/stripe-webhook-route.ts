import type { FastifyInstance } from 'fastify';
import { handleStripeWebhook } from '../payments/handle-stripe-webhook.js';
import type { GatewayServices } from '../services.js';

/**
 * `POST /api/webhooks/stripe` (admin-api section 15): called by Stripe, so no gateway credentials;
 * the `Stripe-Signature` over the raw body is the proof. The body reaches the handler as the bytes
 * received (build-app.ts reads every body into a Buffer and parses none), as the signature needs.
 */
export function registerStripeWebhookRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/webhooks/stripe', async (request) => {
    const header = request.headers['stripe-signature'];
    const outcome = await handleStripeWebhook(services.payments, {
      body: request.body,
      signature: typeof header === 'string' ? header : undefined,
    });
    return { received: true, outcome };
  });
}
