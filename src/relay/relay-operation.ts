import type { Settings } from '../config/settings-schema.js';
import type { PriceRecord } from '../store/prices-repository.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import type { TokenEstimate } from '../billing/token-estimate.js';
import type { PlannerInput, UpstreamPlan } from './plan.js';

/** What a request's reservation is computed from (admin-api section 3, rule 2). */
export interface PreChargeBasis {
  inputTokens: TokenEstimate;
  /** Output tokens the request may produce at most. */
  outputCap: number;
  /** Calls charged at `per_request`: 1, or the images asked for. */
  calls: number;
  /** Of the input tokens, those of audio (priced at `input_audio`). */
  inputAudioTokens?: number;
  /** Characters of text to speak, charged at `per_million_characters` (admin-api section 14). */
  characters?: number;
  /** Seconds of input audio, charged at `per_minute`. */
  audioSeconds?: number;
}

/**
 * How the relay carries one kind of client operation: which of the model's channels can take
 * it, what its reservation is, and how each channel is planned (passthrough or conversion). The
 * relay does the rest the same way for every operation: limits, reservation, attempts, settlement.
 */
export interface RelayOperation {
  /**
   * The candidates that can take the operation. It may refuse the request outright with an error
   * of its own when no candidate fits for a reason the client must hear (an unsuitable model).
   */
  select(candidates: readonly RoutableChannel[], model: string): readonly RoutableChannel[];
  isStream(body: Record<string, unknown>): boolean;
  /** The price the request is billed at: the model's, or one derived from it and the settings. */
  billingPrice(price: PriceRecord, settings: Readonly<Settings>): PriceRecord;
  preCharge(body: Record<string, unknown>, settings: Readonly<Settings>): PreChargeBasis;
  /** Refuses a request that a target model's price cannot bill (audio priced per minute, no duration). */
  checkPrice?(body: Record<string, unknown>, price: PriceRecord, model: string): void;
  /** Client headers that travel to a same-protocol upstream, such as `anthropic-beta`. */
  forwardedHeaders: readonly string[];
  /** Whether an OpenAI chat client asked for the usage chunk (`stream_options.include_usage`). */
  wantsUsageEvents(body: Record<string, unknown>): boolean;
  createPlanner(input: PlannerInput): (channel: RoutableChannel) => Promise<UpstreamPlan | undefined>;
}

/** Billed at the model's own price. */
export const modelPrice = (price: PriceRecord): PriceRecord => price;
