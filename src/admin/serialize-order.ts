import { nanoToUsd } from '../billing/money.js';
import type { OrderEvent } from '../store/order-events-repository.js';
import type { OrderRecord } from '../store/orders-repository.js';

/** An order as the management API shows it (admin-api section 15); with its history for admins. */
export function serializeOrder(order: OrderRecord, events?: readonly OrderEvent[]) {
  return {
    id: order.id,
    user_id: order.userId,
    amount: nanoToUsd(order.amount),
    status: order.status,
    provider: order.provider,
    provider_ref: order.providerRef,
    created_at: order.createdAt,
    paid_at: order.paidAt,
    problem: order.problem,
    ...(events && {
      events: events.map((event) => ({
        type: event.type,
        at: event.at,
        reference: event.reference,
        detail: event.detail,
      })),
    }),
  };
}
