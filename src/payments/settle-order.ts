import { unixNow } from '../store/json-column.js';
import type { OrderRecord } from '../store/orders-repository.js';
import type { Payments, SettledBy } from './payments.js';

export type CreditOutcome = 'credited' | 'already_paid' | 'user_gone';

/** Thrown inside the credit's transaction to roll it back when its user is gone. */
class UserGone extends Error {}

/**
 * Marks an order paid and credits its amount to its user, exactly once whoever calls and however
 * often: one transaction whose first statement changes the order from pending (or expired: the
 * money was taken after all) to paid, and which credits only when that statement changed a row.
 * A replayed webhook, concurrent deliveries, or the reconciler at the same moment all find the
 * order paid and credit nothing. An order whose user was deleted is held back for an admin instead.
 */
export async function creditPaidOrder(
  payments: Payments,
  options: { order: OrderRecord; sessionId: string; by: SettledBy },
): Promise<CreditOutcome> {
  const { orders, orderEvents, balanceCredits } = payments.repositories;
  const { order, sessionId, by } = options;
  let outcome: CreditOutcome;
  try {
    outcome = await payments.store.db.transaction().execute(async (trx) => {
      const paid = await orders.markPaid(trx, { id: order.id, providerRef: sessionId, now: unixNow() });
      if (!paid) return 'already_paid';
      const credit = {
        userId: paid.userId ?? 0,
        amount: paid.amount,
        kind: 'topup',
        reference: order.id,
      } as const;
      if (paid.userId === null || !(await balanceCredits.credit(trx, credit))) throw new UserGone();
      await orderEvents.record(
        { orderId: order.id, type: 'credited', detail: { by, session: sessionId } },
        trx,
      );
      return 'credited';
    });
  } catch (error) {
    if (!(error instanceof UserGone)) throw error;
    await orders.holdBack(order.id, 'user_deleted');
    await orderEvents.record({ orderId: order.id, type: 'user_gone', detail: { by, session: sessionId } });
    payments.logger.warn(
      { order: order.id },
      'a paid order belongs to a deleted user; held back for an admin',
    );
    return 'user_gone';
  }
  if (outcome === 'credited') await payments.balanceRaised();
  return outcome;
}

/** Pending to expired, once; a paid order stays paid. */
export async function expireOrder(
  payments: Payments,
  options: { order: OrderRecord; by: SettledBy | 'checkout'; reason: string },
): Promise<boolean> {
  const { orders, orderEvents } = payments.repositories;
  const { order, by, reason } = options;
  return payments.store.db.transaction().execute(async (trx) => {
    if (!(await orders.markExpired(trx, order.id))) return false;
    await orderEvents.record({ orderId: order.id, type: 'expired', detail: { by, reason } }, trx);
    return true;
  });
}
