import { z } from 'zod';
import { isCidrOrAddress } from '../auth/ip-allow-list.js';
import { isKnownTimeZone } from '../billing/budgets/zoned-time.js';
import { MAX_USD } from '../billing/money.js';
import { httpUrlSchema } from './http-url-schema.js';
import {
  STRIPE_MAX_USD,
  STRIPE_MIN_USD,
  stripeApiBaseSchema,
  stripeSecretKeySchema,
  stripeWebhookSecretSchema,
} from './stripe-setting-schemas.js';

/** Live settings (admin-api.md sections 2, 10, 10.1, 11 and 12): defaults, validation and environment names. */
export const settingsSchema = z
  .object({
    default_max_tokens: z.number().int().min(1).max(10_000_000),
    stream_idle_timeout_s: z.number().int().min(1).max(86_400),
    upstream_timeout_s: z.number().int().min(1).max(86_400),
    connect_timeout_s: z.number().int().min(1).max(600),
    client_headers_timeout_s: z.number().int().min(1).max(3600),
    body_limit_bytes: z.number().int().min(1024).max(Number.MAX_SAFE_INTEGER),
    web_search_price: z.number().min(0).max(1_000_000),
    trusted_proxies: z.array(z.string().refine(isCidrOrAddress, 'must be an IP address or CIDR range')),
    retry_times: z.number().int().min(0).max(10),
    image_fetch_allow_private: z.boolean(),
    channel_failure_threshold: z.number().int().min(1).max(1000),
    channel_probe_interval_s: z.number().int().min(1).max(86_400),
    model_cooldown_s: z.number().int().min(1).max(86_400),
    model_cooldown_max_s: z.number().int().min(1).max(86_400),
    budget_time_zone: z.string().refine(isKnownTimeZone, 'must be an IANA time zone name'),
    log_retention_days: z.number().min(0).max(36_500),
    body_retention_days: z.number().min(0).max(36_500),
    body_log_max_bytes: z.number().int().min(1024).max(16_777_216),
    redact_pii: z.enum(['off', 'logs', 'upstream']),
    routing_strategy: z.enum(['weighted', 'latency']),
    sticky_ttl_s: z
      .number()
      .int()
      .min(1)
      .max(7 * 86_400),
    webhook_url: httpUrlSchema.max(2048).nullable(),
    // Write-only: reads show it masked (serialize-settings.ts).
    webhook_secret: z.string().min(1).max(1024).nullable(),
    // Sign-up and public pricing (admin-api section 15).
    registration: z.enum(['closed', 'open', 'invite']),
    new_user_balance: z.number().min(0).max(MAX_USD),
    pricing_public: z.boolean(),
    // Online top-up (admin-api section 15). Both secrets are write-only, as webhook_secret is.
    stripe_secret_key: stripeSecretKeySchema.nullable(),
    stripe_webhook_secret: stripeWebhookSecretSchema.nullable(),
    stripe_api_base: stripeApiBaseSchema,
    topup_min_usd: z.number().min(STRIPE_MIN_USD).max(STRIPE_MAX_USD),
    topup_reconcile_after_s: z
      .number()
      .int()
      .min(1)
      .max(7 * 86_400),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
export type SettingName = keyof Settings;

export const defaultSettings: Settings = {
  default_max_tokens: 8192,
  stream_idle_timeout_s: 300,
  upstream_timeout_s: 600,
  connect_timeout_s: 10,
  client_headers_timeout_s: 30,
  body_limit_bytes: 134_217_728,
  web_search_price: 0,
  trusted_proxies: [],
  retry_times: 2,
  image_fetch_allow_private: false,
  channel_failure_threshold: 5,
  channel_probe_interval_s: 30,
  model_cooldown_s: 5,
  model_cooldown_max_s: 300,
  budget_time_zone: 'UTC',
  log_retention_days: 0,
  body_retention_days: 7,
  body_log_max_bytes: 1_048_576,
  redact_pii: 'off',
  routing_strategy: 'weighted',
  sticky_ttl_s: 600,
  webhook_url: null,
  webhook_secret: null,
  registration: 'closed',
  new_user_balance: 0,
  pricing_public: true,
  stripe_secret_key: null,
  stripe_webhook_secret: null,
  stripe_api_base: 'https://api.stripe.com',
  topup_min_usd: 1,
  topup_reconcile_after_s: 600,
};

export const settingNames = Object.keys(defaultSettings) as SettingName[];

export function environmentVariableFor(name: SettingName): string {
  return `GATEWAY_${name.toUpperCase()}`;
}
