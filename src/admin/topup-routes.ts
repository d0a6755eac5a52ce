import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_USD, NANO_PER_USD } from '../billing/money.js';
import { STRIPE_MAX_USD } from '../config/stripe-setting-schemas.js';
import { startTopup } from '../payments/start-topup.js';
import type { GatewayServices } from '../services.js';
import { invalidField, notFound } from './admin-error.js';
import { accountOf, ownerIdOf } from './console-identity.js';
import { consoleOriginOf } from './console-origin.js';
import { parseBody } from './parse-body.js';
import { parseListQuery } from './parse-query.js';
import { serializeOrder } from './serialize-order.js';

const MAX_BALANCE_NANO = MAX_USD * NANO_PER_USD;

const topUpSchema = z.strictObject({
  amount: z
    .number()
    .positive()
    .max(STRIPE_MAX_USD)
    // Stripe charges whole cents; an amount finer than that would be rounded without a word.
    .refine(
      (usd) => Math.abs(usd * 100 - Math.round(usd * 100)) < 1e-6,
      'must be whole cents (at most 2 decimals)',
    ),
});

/**
 * `POST /api/me/topup`, `GET /api/me/orders` and `GET /api/me/orders/{id}` (admin-api section 15):
 * a signed-in user pays into their own balance through Stripe Checkout and follows their orders.
 */
export function registerTopupRoutes(
  app: FastifyInstance,
  services: GatewayServices,
  options: { cameOverHttps: (raw: FastifyRequest['raw']) => boolean },
): void {
  const { orders } = services.repositories;

  app.post('/me/topup', async (request) => {
    const account = accountOf(request);
    const { amount } = parseBody(request.body, topUpSchema);
    const minimum = services.settings.get().topup_min_usd;
    if (amount < minimum) throw invalidField('amount', `must be at least ${minimum} USD (topup_min_usd)`);
    const amountCents = Math.round(amount * 100);
    if (account.balance + (amountCents * NANO_PER_USD) / 100 > MAX_BALANCE_NANO)
      throw invalidField('amount', `would raise the balance above ${MAX_USD} USD`);
    const started = await startTopup(services.payments, {
      userId: account.id,
      amountCents,
      consoleOrigin: consoleOriginOf(request, options.cameOverHttps),
    });
    return { order_id: started.orderId, url: started.url };
  });

  app.get('/me/orders', async (request) => {
    const page = parseListQuery(request.query);
    const rows = await orders.list({ userId: ownerIdOf(request) }, page);
    return { data: rows.map((order) => serializeOrder(order)) };
  });

  app.get('/me/orders/:id', async (request) => {
    const id = (request.params as { id?: string }).id ?? '';
    const order = await orders.find(id);
    if (!order || order.userId !== ownerIdOf(request)) throw notFound('order', id);
    return serializeOrder(order);
  });
}
