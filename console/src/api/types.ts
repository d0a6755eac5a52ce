/** Shapes of the management API (shared/spec/admin-api.md sections 2, 7, 8, 10, 11, 12 and 13). Money in USD, times in Unix seconds. */

export type Role = 'user' | 'admin';
export type Language = 'en' | 'zh-CN';
export type AccountStatus = 'enabled' | 'disabled';

export interface ListResponse<T> {
  data: T[];
}

/** `hour`, `day`, `week`, `month`: calendar windows; `hours`: a session window `hours` long; `total`: never resets. */
export type BudgetPeriod = 'hour' | 'day' | 'week' | 'month' | 'hours' | 'total';

/** A spending window of a key, a user or a group (admin-api section 10); at least one limit is set. */
export interface Budget {
  period: BudgetPeriod;
  /** 1-720, with period `hours` only. */
  hours: number | null;
  usd: number | null;
  tokens: number | null;
  requests: number | null;
  /** Only requests for these models count; null: every model. */
  models: string[] | null;
  /** Usage fractions in (0, 1] that send a `budget.threshold` event. */
  alert_at: number[];
}

/** The spend limits keys, users and groups share (admin-api section 10). */
export interface SpendLimits {
  budgets: Budget[];
  /** Requests in flight at once; null: no cap. */
  max_concurrency: number | null;
}

export type BudgetScope = 'key' | 'user' | 'group';

/** One budget's current window (`GET /api/.../budgets`): its limits and what is used of them. */
export interface BudgetUsage {
  scope: BudgetScope;
  /** A key's or user's id, a group's name. */
  id: number | string;
  period: BudgetPeriod;
  hours: number | null;
  usd: number | null;
  tokens: number | null;
  requests: number | null;
  models: string[] | null;
  used_usd: number;
  used_tokens: number;
  used_requests: number;
  /** Null where there is none: `total`, or a session window not open. */
  window_start: number | null;
  resets_at: number | null;
}

export interface User extends SpendLimits {
  id: number;
  username: string;
  role: Role;
  group: string;
  balance: number;
  used: number;
  language: Language | null;
  status: AccountStatus;
  /** A `balance.low` event is sent when the balance falls below it (admin-api section 10.1). */
  low_balance_alert: number | null;
  created_at: number;
}

/** `GET /api/auth/me`: a user, or the root admin (`root`: no account of its own, id 0). */
export interface SignedInUser {
  id: number | null;
  root?: boolean;
  username: string;
  role: Role;
  language: Language | null;
  group?: string;
  balance?: number;
  used?: number;
  status?: AccountStatus;
}

export interface UserFields extends SpendLimits {
  username: string;
  password?: string;
  role: Role;
  group: string;
  balance: number;
  language: Language | null;
  status: AccountStatus;
  low_balance_alert: number | null;
}

export type KeyStatus = 'enabled' | 'disabled' | 'expired' | 'exhausted';

export interface ApiKey extends SpendLimits {
  id: number;
  user_id: number;
  name: string;
  /** Masked, except in the reply to the creating POST. */
  key: string;
  status: KeyStatus;
  expires_at: number | null;
  unlimited_quota: boolean;
  quota: number;
  used_quota: number;
  model_limits: string[] | null;
  ip_allow_list: string[] | null;
  group: string | null;
  rpm: number | null;
  tpm: number | null;
  /** Whether request and response bodies are stored (section 12); null: as the key's group says. */
  log_bodies: boolean | null;
  created_at: number;
}

/**
 * The attributes a key is created or changed with (`user_id` only on creation by an admin;
 * `log_bodies` only from an admin: `/api/me/keys` refuses it).
 */
export interface KeyFields extends SpendLimits {
  name: string;
  status: AccountStatus;
  expires_at: number | null;
  unlimited_quota: boolean;
  quota: number;
  model_limits: string[] | null;
  ip_allow_list: string[] | null;
  group: string | null;
  rpm: number | null;
  tpm: number | null;
  log_bodies?: boolean | null;
}

/**
 * Who owns an entity (admin-api section 13): the configuration file (`config`: read-only through
 * the API, whose writes answer 409 `managed_by_config`) or the API and console (`api`).
 */
export type Managed = 'config' | 'api';

/** `GET /api/config-file`: the file that manages entities (null: none) and the settings it declares. */
export interface ConfigFile {
  file: string | null;
  settings: string[];
}

export type ChannelStatus = 'enabled' | 'disabled' | 'auto_disabled';

export interface Channel {
  id: number;
  name: string;
  type: string;
  base_url: string | null;
  /** Masked. */
  keys: string[];
  models: string[];
  model_mapping: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  endpoints: string[] | null;
  status: ChannelStatus;
  config: Record<string, unknown>;
  created_at: number;
  managed: Managed;
}

export interface ChannelFields {
  name: string;
  type: string;
  base_url: string | null;
  keys: string[];
  models: string[];
  model_mapping: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  endpoints: string[] | null;
  status: ChannelStatus;
  config: Record<string, string>;
}

export type ModelHealthState = 'healthy' | 'cooling_down' | 'probing';

export interface ChannelHealth {
  data: { model: string; state: ModelHealthState; failures: number; until: number | null }[];
  keys: { index: number; state: 'active' | 'refused' }[];
}

export interface ChannelTestResult {
  ok: boolean;
  latency_ms: number;
  error: string | null;
}

export interface Price {
  model: string;
  input: number;
  output: number;
  cached_input: number | null;
  cache_write: number | null;
  per_request: number | null;
  /** USD per 1M audio tokens; null: the text `input` / `output` price applies (admin-api section 14). */
  input_audio: number | null;
  output_audio: number | null;
  /** USD per minute of input audio (transcription). */
  per_minute: number | null;
  /** USD per 1M input characters (text-to-speech). */
  per_million_characters: number | null;
  managed: Managed;
}

export type PriceFields = Omit<Price, 'model' | 'managed'>;

/** What a request may need of a model (admin-api section 11.1). */
export const MODEL_CAPABILITIES = ['tools', 'vision', 'json_schema', 'reasoning', 'audio'] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];

/**
 * What is known of a public model ID (admin-api section 11.1); null is unknown and never excludes the
 * model. `capabilities` is read as plain strings: a newer gateway's capability is kept, not dropped.
 */
export interface ModelMetadata {
  model: string;
  context_window: number | null;
  max_output_tokens: number | null;
  /** Null: unknown; `[]`: known to have none. */
  capabilities: (ModelCapability | (string & {}))[] | null;
  managed: Managed;
}

/** The body of `PUT /api/models/{model}`. */
export type ModelMetadataFields = Omit<ModelMetadata, 'model' | 'managed'>;

/** The failures that move a virtual model's request to its next target (admin-api section 11.3). */
export const FALLBACK_KINDS = [
  'rate_limit',
  'server_error',
  'timeout',
  'context_length',
  'content_filter',
] as const;
export type FallbackKind = (typeof FALLBACK_KINDS)[number];

export const VIRTUAL_MODEL_STRATEGIES = ['priority', 'latency'] as const;
export type VirtualModelStrategy = (typeof VIRTUAL_MODEL_STRATEGIES)[number];

/** One public model ID a virtual model routes to: higher priority first, weighted random within one. */
export interface VirtualModelTarget {
  model: string;
  priority: number;
  weight: number;
}

/**
 * A public model ID that routes to other models (admin-api section 11.2). `strategy` and
 * `fallback_on` are read as plain strings: a newer gateway's value is shown and kept, not dropped.
 */
export interface VirtualModel {
  name: string;
  targets: VirtualModelTarget[];
  strategy: VirtualModelStrategy | (string & {});
  fallback_on: (FallbackKind | (string & {}))[];
  sticky: boolean;
  managed: Managed;
}

/** The body of `POST /api/virtual-models`; a `PATCH` sends any of it but the name. */
export type VirtualModelFields = Omit<VirtualModel, 'managed'>;

export interface Group extends SpendLimits {
  name: string;
  ratio: number;
  /** Whether request and response bodies of its members' keys are stored (section 12). */
  log_bodies: boolean;
  managed: Managed;
}

/** The body of `PUT /api/groups/{name}`. */
export type GroupFields = Omit<Group, 'name' | 'managed'>;

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** An event in the webhook outbox (admin-api section 10.1). */
export interface WebhookDelivery {
  id: string;
  type: string;
  created_at: number;
  attempts: number;
  status: WebhookDeliveryStatus;
  last_status_code: number | null;
}

/** `POST /api/webhook-deliveries/test`: what the receiver answered (`status_code` null: no answer). */
export interface WebhookTestResult {
  ok: boolean;
  id: string;
  status_code: number | null;
  error: string | null;
}

export type SettingValue = number | boolean | string | string[] | null;
export type Settings = Record<string, SettingValue>;

export interface UsageLog {
  id: number;
  request_id: string;
  created_at: number;
  user_id: number;
  key_id: number;
  channel_id: number | null;
  /** The model that served the request: a virtual model's target (admin-api section 11.2). */
  model: string;
  /** What the client sent; absent from gateways older than section 11. */
  requested_model?: string | null;
  endpoint: string;
  stream: boolean;
  status_code: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost: number;
  latency_ms: number;
  first_byte_ms: number | null;
  error: string | null;
  /** Seconds of input audio billed at `per_minute` (admin-api section 14); null when not audio. */
  audio_seconds: number | null;
  /** Characters of speech input billed at `per_million_characters`; null when not speech. */
  characters: number | null;
}

/** Sums over every record the filters match (not only the page shown). */
export interface UsageTotals {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

/**
 * `GET /api/logs/{id}`: a record with its bodies (section 12), null where body logging was off for
 * the request or retention removed them. The response body of a streamed request is its SSE text.
 */
export interface UsageLogDetail extends UsageLog {
  request_body: string | null;
  response_body: string | null;
  /** A body was cut at the `body_log_max_bytes` setting. */
  body_truncated: boolean;
}

export interface UsageLogPage extends ListResponse<UsageLog> {
  total: UsageTotals;
}

export type StatsBucket = 'hour' | 'day';
export type StatsGroupBy = 'model' | 'channel' | 'user' | 'key';

/** One bucket of one group: `t` is the bucket's start. */
export interface StatsRow {
  t: number;
  group: string | number | null;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  /** Mean latency and time to first byte of the bucket's requests. */
  avg_latency_ms?: number | null;
  avg_first_byte_ms?: number | null;
}

/** Success and latency of a channel's records over a window (`success_rate` null without records). */
export interface HealthSummary {
  requests: number;
  errors: number;
  success_rate: number | null;
  avg_latency_ms: number | null;
  p50_latency_ms: number | null;
  avg_first_byte_ms: number | null;
}

/** `GET /api/channels/{id}/stats`: the channel in all and per model. */
export interface ChannelStats extends HealthSummary {
  channel_id: number;
  from: number;
  to: number;
  models: (HealthSummary & { model: string })[];
}
