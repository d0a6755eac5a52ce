import type { Budget } from '../billing/budgets/budget.js';
import { nanoToUsd } from '../billing/money.js';

/** A budget as the management API shows it (admin-api section 10): the wire form `budgetsSchema` reads. */
export function serializeBudget(budget: Budget) {
  return {
    period: budget.period,
    hours: budget.hours,
    usd: budget.usd === null ? null : nanoToUsd(budget.usd),
    tokens: budget.tokens,
    requests: budget.requests,
    models: budget.models,
    alert_at: budget.alertAt,
  };
}
