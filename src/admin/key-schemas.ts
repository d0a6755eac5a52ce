import { z } from 'zod';
import { isCidrOrAddress } from '../auth/ip-allow-list.js';
import { budgetsSchema } from './budget-schema.js';
import { maxConcurrencySchema } from './max-concurrency-schema.js';
import { nonNegativeUsdAsNano } from './usd-schema.js';

const DERIVED_STATUSES: readonly unknown[] = ['expired', 'exhausted'];

const storedStatus = z.enum(['enabled', 'disabled'], {
  error: (issue) =>
    DERIVED_STATUSES.includes(issue.input)
      ? `"${String(issue.input)}" is derived from expires_at and quota and cannot be set`
      : undefined,
});

const keyFields = {
  name: z.string().max(128),
  status: storedStatus,
  expires_at: z.number().int().min(0).nullable(),
  unlimited_quota: z.boolean(),
  quota: nonNegativeUsdAsNano,
  model_limits: z.array(z.string().min(1).max(256)).nullable(),
  ip_allow_list: z
    .array(z.string().refine(isCidrOrAddress, 'must be an IPv4/IPv6 address or CIDR range'))
    .nullable(),
  group: z.string().min(1).max(64).nullable(),
  rpm: z.number().int().min(1).nullable(),
  tpm: z.number().int().min(1).nullable(),
  budgets: budgetsSchema,
  max_concurrency: maxConcurrencySchema,
  log_bodies: z.boolean().nullable(),
};

export const KEY_READ_ONLY_FIELDS = ['id', 'key', 'used_quota', 'created_at'] as const;

export const createKeySchema = z.strictObject({
  user_id: z.number().int().min(1),
  name: keyFields.name.default(''),
  status: keyFields.status.default('enabled'),
  expires_at: keyFields.expires_at.default(null),
  unlimited_quota: keyFields.unlimited_quota.default(true),
  quota: keyFields.quota.default(0),
  model_limits: keyFields.model_limits.default(null),
  ip_allow_list: keyFields.ip_allow_list.default(null),
  group: keyFields.group.default(null),
  rpm: keyFields.rpm.default(null),
  tpm: keyFields.tpm.default(null),
  budgets: keyFields.budgets.default([]),
  max_concurrency: keyFields.max_concurrency.default(null),
  log_bodies: keyFields.log_bodies.default(null),
});

/** Built without defaults: zod applies a field's default even inside `.partial()`. */
export const updateKeySchema = z.strictObject(keyFields).partial();
