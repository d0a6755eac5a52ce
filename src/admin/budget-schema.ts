import { z } from 'zod';
import type { Budget } from '../billing/budgets/budget.js';
import { publicModelId } from './public-model-id.js';
import { nonNegativeUsdAsNano } from './usd-schema.js';

/** Session windows last from one hour to thirty days (admin-api section 10). */
const MAX_SESSION_HOURS = 720;
/** Windows one key, user or group may have: enough for every period and a few per model. */
const MAX_BUDGETS = 32;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * A budget object on the wire (admin-api section 10), checked as the management API checks
 * everything: an unknown member, a limit of the wrong type, `hours` outside 1-720, `hours` without
 * `period: "hours"` (or the reverse) and a budget without any limit are each refused naming the member.
 */
const budgetSchema = z
  .strictObject({
    period: z.enum(['hour', 'day', 'week', 'month', 'hours', 'total']),
    hours: z.number().int().min(1).max(MAX_SESSION_HOURS).nullable().default(null),
    usd: nonNegativeUsdAsNano.nullable().default(null),
    tokens: count.nullable().default(null),
    requests: count.nullable().default(null),
    models: z.array(publicModelId).min(1).nullable().default(null),
    alert_at: z.array(z.number().gt(0).max(1)).max(10).default([]),
  })
  .superRefine((budget, context) => {
    if (budget.period === 'hours' && budget.hours === null)
      context.addIssue({ code: 'custom', path: ['hours'], message: 'is required with period "hours"' });
    if (budget.period !== 'hours' && budget.hours !== null)
      context.addIssue({ code: 'custom', path: ['hours'], message: 'is only taken with period "hours"' });
    if (budget.usd === null && budget.tokens === null && budget.requests === null)
      context.addIssue({ code: 'custom', path: [], message: 'needs a limit: usd, tokens or requests' });
  })
  .transform((budget): Budget => ({
    period: budget.period,
    hours: budget.hours,
    usd: budget.usd,
    tokens: budget.tokens,
    requests: budget.requests,
    models: budget.models,
    alertAt: [...new Set(budget.alert_at)].sort((a, b) => a - b),
  }));

/** The `budgets` member of keys, users and groups. */
export const budgetsSchema = z.array(budgetSchema).max(MAX_BUDGETS);
