/**
 * One model of `GET /api/pricing` (admin-api section 15): USD per 1M tokens, for the default group
 * or, signed in, the caller's group with its ratio applied. Audio prices (section 14) where the
 * gateway sends them; null: not charged that way.
 */
export interface ModelPricing {
  model: string;
  input: number;
  output: number;
  cached_input: number | null;
  cache_write: number | null;
  per_request: number | null;
  endpoint_types: string[];
  context_window: number | null;
  capabilities: string[] | null;
  input_audio?: number | null;
  output_audio?: number | null;
  per_minute?: number | null;
  per_million_characters?: number | null;
}
