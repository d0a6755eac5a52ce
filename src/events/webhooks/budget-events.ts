import type { WindowCharge } from '../../billing/budgets/window-charge.js';
import { budgetFigure, webhookEvent, type BudgetEventData, type WebhookEvent } from './webhook-event.js';

/** A window's settled usage of one dimension reached one of its `alert_at` fractions. */
export interface ThresholdCrossing {
  window: WindowCharge;
  windowStart: number;
  dimension: BudgetEventData['dimension'];
  threshold: number;
  used: number;
  limit: number;
}

/**
 * `budget.threshold`: one per window, dimension and fraction, whoever decides it (the id is the
 * occurrence's).
 */
export function thresholdEvent(crossing: ThresholdCrossing, nowS: number): WebhookEvent {
  const { window, windowStart, dimension, threshold } = crossing;
  const data = budgetEventData(window, windowStart, dimension, threshold, crossing.used, crossing.limit);
  return webhookEvent('budget.threshold', data, {
    nowS,
    occurrence: `${window.key}|${windowStart}|${dimension}|${threshold}`,
  });
}

/** `budget.exceeded`: the first request a window refused, once per window. */
export function exceededEvent(
  window: WindowCharge,
  refusal: { windowStart: number; dimension: BudgetEventData['dimension'] },
  used: number,
  nowS: number,
): WebhookEvent {
  const limit = window[refusal.dimension] ?? 0;
  const data = budgetEventData(window, refusal.windowStart, refusal.dimension, 1, used, limit);
  return webhookEvent('budget.exceeded', data, { nowS, occurrence: `${window.key}|${refusal.windowStart}` });
}

function budgetEventData(
  window: WindowCharge,
  windowStart: number,
  dimension: BudgetEventData['dimension'],
  threshold: number,
  used: number,
  limit: number,
): BudgetEventData {
  const total = window.period === 'total';
  return {
    scope: window.scope,
    id: window.owner,
    period: window.period,
    window_start: total ? null : windowStart,
    dimension,
    threshold,
    used: budgetFigure(dimension, used),
    limit: budgetFigure(dimension, limit),
    resets_at: total ? null : (window.end ?? windowStart + (window.sessionSeconds ?? 0)),
  };
}
