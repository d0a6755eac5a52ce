import { nanoToUsd } from '../../billing/money.js';
import { webhookEvent, type WebhookEvent } from './webhook-event.js';

/** `balance.low` (admin-api section 10.1): amounts in nano-USD, sent in USD. */
export function lowBalanceEvent(
  userId: number,
  balance: number,
  threshold: number,
  nowS: number,
): WebhookEvent {
  return webhookEvent(
    'balance.low',
    { user_id: userId, balance: nanoToUsd(balance), threshold: nanoToUsd(threshold) },
    { nowS },
  );
}
