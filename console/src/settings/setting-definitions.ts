import type { SettingValue } from '../api/types';

export type SettingKind = 'integer' | 'number' | 'boolean' | 'list' | 'text' | 'choice';

interface SettingDefinition {
  kind: SettingKind;
  min?: number;
  max?: number;
  /** A text setting that an empty field sets to null. */
  nullable?: boolean;
  /** The values a `choice` setting takes, each labelled in `settings.choices.<name>.<value>`. */
  options?: readonly string[];
}

/** Settings whose meaning the console explains (src/config/settings-schema.ts, admin-api sections 2, 7, 10, 11, 12 and 15). */
export const KNOWN_SETTINGS = {
  default_max_tokens: { kind: 'integer', min: 1 },
  stream_idle_timeout_s: { kind: 'integer', min: 1 },
  upstream_timeout_s: { kind: 'integer', min: 1 },
  connect_timeout_s: { kind: 'integer', min: 1 },
  client_headers_timeout_s: { kind: 'integer', min: 1 },
  body_limit_bytes: { kind: 'integer', min: 1024 },
  web_search_price: { kind: 'number', min: 0 },
  trusted_proxies: { kind: 'list' },
  retry_times: { kind: 'integer', min: 0 },
  image_fetch_allow_private: { kind: 'boolean' },
  channel_failure_threshold: { kind: 'integer', min: 1 },
  channel_probe_interval_s: { kind: 'integer', min: 1 },
  model_cooldown_s: { kind: 'integer', min: 1 },
  model_cooldown_max_s: { kind: 'integer', min: 1 },
  budget_time_zone: { kind: 'text' },
  webhook_url: { kind: 'text', nullable: true },
  // Read back masked: the field shows the mask, and only a value typed over it is sent.
  webhook_secret: { kind: 'text', nullable: true },
  // Section 11.5: how a model's channel is chosen; section 11.4: how long an affinity holds.
  routing_strategy: { kind: 'choice', options: ['weighted', 'latency'] },
  sticky_ttl_s: { kind: 'integer', min: 1 },
  // Section 12: how long usage records are kept (0: forever), and where personal data is redacted.
  log_retention_days: { kind: 'number', min: 0 },
  redact_pii: { kind: 'choice', options: ['off', 'logs', 'upstream'] },
  // Section 12: how long stored bodies are kept (0: forever), and where each body is cut.
  body_retention_days: { kind: 'number', min: 0, max: 36_500 },
  body_log_max_bytes: { kind: 'integer', min: 1024, max: 16_777_216 },
  // Section 15: who may sign up, what a new account starts with, whether prices are public.
  registration: { kind: 'choice', options: ['closed', 'open', 'invite'] },
  new_user_balance: { kind: 'number', min: 0 },
  pricing_public: { kind: 'boolean' },
  // Section 15: card top-up through Stripe; both secrets read back masked, as webhook_secret.
  stripe_secret_key: { kind: 'text', nullable: true },
  stripe_webhook_secret: { kind: 'text', nullable: true },
  stripe_api_base: { kind: 'text' },
  topup_min_usd: { kind: 'number', min: 0 },
  topup_reconcile_after_s: { kind: 'integer', min: 1 },
} as const satisfies Record<string, SettingDefinition>;

export type KnownSetting = keyof typeof KNOWN_SETTINGS;

export function isKnownSetting(name: string): name is KnownSetting {
  return Object.hasOwn(KNOWN_SETTINGS, name);
}

/** The kind of a setting: from the list above, else from its current value (a newer gateway's setting). */
export function settingKind(name: string, value: SettingValue): SettingKind {
  if (isKnownSetting(name)) return KNOWN_SETTINGS[name].kind;
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return 'text';
}

/** Whether emptying the field sets the setting to null: known for ours, guessed from a null value for others. */
export function settingIsNullable(name: string, value: SettingValue): boolean {
  if (!isKnownSetting(name)) return value === null;
  const definition: SettingDefinition = KNOWN_SETTINGS[name];
  return definition.nullable === true;
}

/** The least and the greatest value a numeric setting takes, where the console knows them. */
export function settingBounds(name: string): { min?: number; max?: number } {
  if (!isKnownSetting(name)) return {};
  const { min, max }: SettingDefinition = KNOWN_SETTINGS[name];
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/** The settings of kind `choice`, whose values the console names. */
export type ChoiceSetting = {
  [Name in KnownSetting]: (typeof KNOWN_SETTINGS)[Name]['kind'] extends 'choice' ? Name : never;
}[KnownSetting];

/** The values of a `choice` setting the console knows, or undefined for any other setting. */
export function settingOptions(name: string): readonly string[] | undefined {
  if (!isKnownSetting(name)) return undefined;
  const definition: SettingDefinition = KNOWN_SETTINGS[name];
  return definition.options;
}

/** `GATEWAY_` and the upper-case name: read at start (admin-api section 2). */
export function environmentVariableOf(name: string): string {
  return `GATEWAY_${name.toUpperCase()}`;
}
