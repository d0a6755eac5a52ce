import { z } from 'zod';
import { budgetsSchema } from './budget-schema.js';
import { maxConcurrencySchema } from './max-concurrency-schema.js';
import { nonNegativeUsdAsNano, usdAsNano } from './usd-schema.js';

const userFields = {
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
  role: z.enum(['user', 'admin']),
  group: z.string().min(1).max(64),
  balance: usdAsNano,
  language: z.enum(['en', 'zh-CN']).nullable(),
  status: z.enum(['enabled', 'disabled']),
  budgets: budgetsSchema,
  max_concurrency: maxConcurrencySchema,
  low_balance_alert: nonNegativeUsdAsNano.nullable(),
};

export const USER_READ_ONLY_FIELDS = ['id', 'used', 'created_at'] as const;

export const createUserSchema = z.strictObject({
  ...userFields,
  password: userFields.password.optional(),
  role: userFields.role.default('user'),
  group: userFields.group.default('default'),
  balance: userFields.balance.default(0),
  language: userFields.language.default(null),
  status: userFields.status.default('enabled'),
  budgets: userFields.budgets.default([]),
  max_concurrency: userFields.max_concurrency.default(null),
  low_balance_alert: userFields.low_balance_alert.default(null),
});

/** Built without defaults: zod applies a field's default even inside `.partial()`. */
export const updateUserSchema = z.strictObject(userFields).partial();

export const topUpSchema = z.strictObject({
  amount: usdAsNano.refine((nano) => nano > 0, 'must be at least 0.000000001 USD'),
});
