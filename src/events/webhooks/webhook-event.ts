import { createHash, randomUUID } from 'node:crypto';
import type { BudgetPeriod } from '../../billing/budgets/budget-window.js';
import { nanoToUsd } from '../../billing/money.js';

/** An event to deliver (admin-api section 10.1), with the body it is sent and signed as. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** Unix seconds. */
  createdAt: number;
  body: string;
}

export type WebhookEventType =
  | 'budget.threshold'
  | 'budget.exceeded'
  | 'balance.low'
  | 'channel.auto_disabled'
  | 'channel.recovered'
  /** Sent by the console's "send test event" only; never stored. */
  | 'webhook.test';

/** What the budget events say of their window. */
export interface BudgetEventData {
  scope: 'key' | 'user' | 'group';
  id: number | string;
  period: BudgetPeriod | 'concurrency';
  /** Unix seconds; null for `total`. */
  window_start: number | null;
  dimension: 'usd' | 'tokens' | 'requests';
  threshold: number;
  /** USD for `usd`, else counts. */
  used: number;
  limit: number;
  /** Unix seconds; null for `total`. */
  resets_at: number | null;
}

/**
 * An event. `occurrence` names what the event is about where it may happen once only (a window's
 * threshold): its id is then derived from it, so whichever process decides the event first stores
 * it and any other decision of the same event finds it stored. Without one the id is random.
 */
export function webhookEvent(
  type: WebhookEventType,
  data: object,
  options: { nowS: number; occurrence?: string },
): WebhookEvent {
  const id =
    options.occurrence === undefined
      ? `evt_${randomUUID().replaceAll('-', '')}`
      : `evt_${createHash('sha256').update(`${type}|${options.occurrence}`).digest('hex').slice(0, 32)}`;
  const body = JSON.stringify({ id, type, created_at: options.nowS, data });
  return { id, type, createdAt: options.nowS, body };
}

/** A figure of a budget dimension as events carry it: USD for `usd` (stored in nano-USD). */
export function budgetFigure(dimension: BudgetEventData['dimension'], value: number): number {
  return dimension === 'usd' ? nanoToUsd(value) : value;
}
