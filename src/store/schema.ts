import type { Generated } from 'kysely';

/**
 * Row types of every table. Money columns hold integers of nano-USD (1e-9 USD);
 * prices hold nano-USD per 1,000,000 tokens. Booleans are stored as 0/1 on SQLite.
 * JSON columns hold serialized text so both databases share one representation.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string | null;
  role: string;
  group_name: string;
  balance: number;
  used: number;
  language: string | null;
  status: string;
  created_at: number;
  /** JSON array of budgets (admin-api section 10); `[]` when none. */
  budgets: Generated<string>;
  max_concurrency: number | null;
  /** nano-USD; the `balance.low` event's threshold. */
  low_balance_alert: number | null;
  /** The event was sent and the balance has not stood at or above the threshold since. */
  low_balance_alerted: Generated<number | boolean>;
  /** 1: a name from before case-insensitive usernames that differs from an older one only in case. */
  username_case_duplicate: Generated<number>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  key_hint: string;
  status: string;
  expires_at: number | null;
  unlimited_quota: number | boolean;
  quota: number;
  used_quota: number;
  model_limits: string | null;
  ip_allow_list: string | null;
  group_name: string | null;
  rpm: number | null;
  tpm: number | null;
  created_at: number;
  budgets: Generated<string>;
  max_concurrency: number | null;
  /** Whether request and response bodies are stored; null follows the group. */
  log_bodies: boolean | number | null;
}

export interface ChannelsTable {
  id: Generated<number>;
  name: string;
  type: string;
  base_url: string | null;
  keys: string;
  models: string;
  model_mapping: string;
  groups: string;
  priority: number;
  weight: number;
  endpoints: string | null;
  status: string;
  created_at: number;
  /** JSON object; rows from before the column have its default, `{}`. */
  config: string;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

export interface PricesTable {
  model: string;
  input: number;
  output: number;
  cached_input: number | null;
  cache_write: number | null;
  per_request: number | null;
  input_audio: number | null;
  output_audio: number | null;
  per_minute: number | null;
  per_million_characters: number | null;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

/** What is known of a public model ID (admin-api section 11.1); null: unknown. */
export interface ModelMetadataTable {
  model: string;
  context_window: number | null;
  max_output_tokens: number | null;
  /** JSON array of capability names; null: unknown. */
  capabilities: string | null;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

export interface VirtualModelsTable {
  name: string;
  /** JSON array of {model, priority, weight}. */
  targets: string;
  strategy: 'priority' | 'latency';
  /** JSON array of failure kinds. */
  fallback_on: string;
  sticky: number | boolean;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

export interface GroupsTable {
  name: string;
  ratio: number;
  budgets: Generated<string>;
  max_concurrency: number | null;
  log_bodies: Generated<boolean | number>;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

export interface SettingsTable {
  name: string;
  value: string;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

export interface SystemStateTable {
  name: string;
  value: string;
}

export interface UsageLogsTable {
  id: Generated<number>;
  request_id: string;
  created_at: number;
  user_id: number;
  key_id: number;
  channel_id: number | null;
  model: string;
  /** The model the client named, where it differs from `model` (admin-api section 11.2). */
  requested_model: string | null;
  endpoint: string;
  stream: number | boolean;
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

/** Money taken from a balance (and a capped key's quota) for a request still running. */
export interface HoldsTable {
  /** The request id. */
  id: string;
  /** The lease owner (one process life) whose request this is. */
  owner: string;
  user_id: number;
  key_id: number;
  key_capped: number | boolean;
  /** nano-USD */
  amount: number;
  model: string;
  requested_model: string | null;
  endpoint: string;
  stream: number | boolean;
  created_at: number;
  /** The usage record, set by the settlement; null while the request runs. */
  status_code: number | null;
  channel_id: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_tokens: number | null;
  cache_write_tokens: number | null;
  reasoning_tokens: number | null;
  cost: number | null;
  latency_ms: number | null;
  first_byte_ms: number | null;
  error: string | null;
  audio_seconds: number | null;
  characters: number | null;
  settled_at: number | null;
  /** JSON array of the keys of the budget windows the hold reserved in; null when none. */
  windows: string | null;
  /** The tokens reserved in each of those windows. */
  budget_tokens: number | null;
}

/** A process life that owns holds, alive while it renews `expires_at` (Unix milliseconds). */
export interface LeasesTable {
  owner: string;
  /** Machine identity, so a process on the same machine can tell a dead owner at once by its pid. */
  host: string;
  pid: number;
  expires_at: number;
}

/** A web console session (admin-api section 8). Times are Unix seconds. */
export interface SessionsTable {
  /** SHA-256 (hex) of the session token. */
  id: string;
  /** null: the root admin. */
  user_id: number | null;
  /** Root sessions: fingerprint of the admin token that signed in. */
  root_token: string | null;
  /** SHA-256 (hex) of the CSRF token. */
  csrf_hash: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
}

/**
 * The counts of one window of a budget or of a concurrency cap (admin-api section 10), for the
 * window starting at `window_start` (Unix seconds). `used_*` are settled; `held_*` are reserved
 * by requests in flight.
 */
export interface BudgetWindowsTable {
  window_key: string;
  window_start: number;
  used_usd: number;
  used_tokens: number;
  used_requests: number;
  held_usd: number;
  held_tokens: number;
  held_requests: number;
}

/** An event webhook to deliver (admin-api section 10.1). */
export interface WebhookEventsTable {
  id: string;
  type: string;
  /** The request body as it is sent and signed. */
  body: string;
  created_at: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** Unix milliseconds. */
  next_attempt_at: number;
  last_status_code: number | null;
}

export interface JobLeasesTable {
  name: string;
  owner: string;
  /** Unix milliseconds. */
  expires_at: number;
}

export interface GuardrailsTable {
  id: Generated<number>;
  name: string;
  kind: string;
  pattern: string | null;
  url: string | null;
  action: string;
  fail: string;
  timeout_ms: number;
  /** JSON array of group names; null: every group. */
  groups: string | null;
  created_at: number;
  /** `config` when a configuration file declares it (admin-api section 13), else `api`. */
  managed: Generated<string>;
}

/** The bodies of one request whose key logs them, by the request id of its usage record. */
export interface UsageLogBodiesTable {
  request_id: string;
  /** Unix seconds. */
  created_at: number;
  request_body: string | null;
  response_body: string | null;
  /** A body was cut at `body_log_max_bytes`. */
  truncated: boolean | number;
}

/** Money put into a balance (admin-api section 15); amounts in nano-USD. */
export interface BalanceCreditsTable {
  id: Generated<number>;
  user_id: number;
  amount: number | bigint;
  kind: string;
  reference: string | null;
  created_at: number;
}

/** A single-use code that lets someone register when `registration` is `invite` (admin-api section 15). */
export interface InviteCodesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the code; the code itself is shown once, at creation. */
  code_hash: string;
  /** The masked code that lists show. */
  code_hint: string;
  created_at: number;
  /** Set when the code is used; a used code stays used even if its user is deleted. */
  used_at: number | null;
  used_by: number | null;
}

/** A single-use code that credits its amount (nano-USD) to whoever redeems it (admin-api section 15). */
export interface RedemptionCodesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the code; the code itself is shown once, at creation. */
  code_hash: string;
  /** The masked code that lists show. */
  code_hint: string;
  name: string;
  amount: number;
  expires_at: number | null;
  disabled_at: number | null;
  created_at: number;
  /** Set when the code is redeemed; a redeemed code stays used even if its user is deleted. */
  used_at: number | null;
  used_by: number | null;
}

/** A top-up paid through a payment provider (admin-api section 15); amounts in nano-USD. */
export interface OrdersTable {
  /** The order in which orders were made. */
  seq: Generated<number>;
  /** `ord_` and random characters: order ids travel through the provider and the browser. */
  id: string;
  /** Null once the user is deleted: the order stays as the record of a payment. */
  user_id: number | null;
  amount: number | bigint;
  /** `pending`, `paid` or `expired`. */
  status: string;
  /** `stripe`. */
  provider: string;
  /** The provider's id of the payment: a Stripe Checkout Session id. */
  provider_ref: string | null;
  created_at: number;
  paid_at: number | null;
  /** The reconciler checks the order again no sooner than this (Unix seconds); null: when due by age. */
  next_check_at: number | null;
  /** Why the order is held back from any credit until an admin looks; null for none. */
  problem: string | null;
}

/** What happened to an order, for admins: webhooks received, checks, the credit. */
export interface OrderEventsTable {
  id: Generated<number>;
  order_id: string;
  type: string;
  at: number;
  /** The provider's id of what this event came from (a Stripe event id), when it has one. */
  reference: string | null;
  /** JSON object. */
  detail: string | null;
}

export interface Database {
  users: UsersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  invite_codes: InviteCodesTable;
  redemption_codes: RedemptionCodesTable;
  balance_credits: BalanceCreditsTable;
  api_keys: ApiKeysTable;
  channels: ChannelsTable;
  prices: PricesTable;
  model_metadata: ModelMetadataTable;
  virtual_models: VirtualModelsTable;
  groups: GroupsTable;
  settings: SettingsTable;
  system_state: SystemStateTable;
  usage_logs: UsageLogsTable;
  holds: HoldsTable;
  leases: LeasesTable;
  sessions: SessionsTable;
  budget_windows: BudgetWindowsTable;
  webhook_events: WebhookEventsTable;
  job_leases: JobLeasesTable;
  guardrails: GuardrailsTable;
  usage_log_bodies: UsageLogBodiesTable;
}
