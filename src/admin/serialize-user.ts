import { nanoToUsd } from '../billing/money.js';
import type { UserRecord } from '../store/users-repository.js';
import { serializeBudget } from './serialize-budget.js';

/** A user as the management API shows it; the password hash never leaves the store. */
export function serializeUser(user: UserRecord) {
  return {
    id: user.id,
    username: user.username,
    role: user.role,
    group: user.group,
    balance: nanoToUsd(user.balance),
    used: nanoToUsd(user.used),
    language: user.language,
    status: user.status,
    budgets: user.budgets.map(serializeBudget),
    max_concurrency: user.maxConcurrency,
    low_balance_alert: user.lowBalanceAlert === null ? null : nanoToUsd(user.lowBalanceAlert),
    created_at: user.createdAt,
  };
}
