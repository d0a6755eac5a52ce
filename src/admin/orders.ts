import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import type { OrderStatus } from '../store/orders-repository.js';
import { invalidField, notFound } from './admin-error.js';
import { parseListQuery, readIntegerParameter, readStringParameter } from './parse-query.js';
import { serializeOrder } from './serialize-order.js';

const STATUSES: readonly OrderStatus[] = ['pending', 'paid', 'expired'];

/** `GET /api/orders` and `GET /api/orders/{id}` (admin-api section 15): every order, each with what happened to it. */
export function registerOrderRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { orders, orderEvents } = services.repositories;

  app.get('/orders', async (request) => {
    const page = parseListQuery(request.query);
    const userId = readIntegerParameter(request.query, 'user_id', { min: 1, max: Number.MAX_SAFE_INTEGER });
    const status = readStringParameter(request.query, 'status');
    if (status !== undefined && !STATUSES.includes(status as OrderStatus))
      throw invalidField('status', `must be one of ${STATUSES.join(', ')}`);
    const rows = await orders.list({ userId, status: status as OrderStatus | undefined }, page);
    const events = await orderEvents.forOrders(rows.map((order) => order.id));
    return { data: rows.map((order) => serializeOrder(order, events.get(order.id) ?? [])) };
  });

  app.get('/orders/:id', async (request) => {
    const id = (request.params as { id?: string }).id ?? '';
    const order = await orders.find(id);
    if (!order) throw notFound('order', id);
    const events = await orderEvents.forOrders([order.id]);
    return serializeOrder(order, events.get(order.id) ?? []);
  });
}
