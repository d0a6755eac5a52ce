import { apiRequest } from '../api/api-client';
import type { ListResponse } from '../api/types';
import type { Order, StartedTopUp } from './order';

/** `POST /api/me/topup`: an order of this many USD and its Stripe Checkout Session. */
export function startTopUp(amount: number): Promise<StartedTopUp> {
  return apiRequest<StartedTopUp>('/me/topup', { method: 'POST', body: { amount } });
}

/** `GET /api/me/orders`: the caller's orders, newest first. */
export async function listOwnOrders(): Promise<Order[]> {
  return (await apiRequest<ListResponse<Order>>('/me/orders', { query: { limit: 50 } })).data;
}

/** `GET /api/orders` (admins): every user's orders with their events, newest first. */
export async function listOrders(page: { limit: number; offset: number }): Promise<Order[]> {
  return (await apiRequest<ListResponse<Order>>('/orders', { query: page })).data;
}
