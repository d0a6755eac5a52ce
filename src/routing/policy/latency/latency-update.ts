import { asFiniteNumber, asString, isJsonObject } from '../../../protocols/wire-json.js';

/** The longest public model id (`publicModelIdProblem`); anything longer was never a model here. */
const MAX_MODEL_LENGTH = 256;

/** One instance's current first-byte latency estimate of a (channel, public model) pair, shared with the others. */
export interface LatencyUpdate {
  kind: 'latency';
  channelId: number;
  model: string;
  /** The sender's smoothed estimate, in milliseconds. */
  ms: number;
  /** Unix milliseconds of the sender's newest sample behind `ms`. */
  at: number;
}

/** Reads an update received from another instance; undefined for anything malformed. */
export function readLatencyUpdate(value: unknown): LatencyUpdate | undefined {
  if (!isJsonObject(value) || value.kind !== 'latency') return undefined;
  const channelId = asFiniteNumber(value.channelId);
  const model = asString(value.model);
  const ms = asFiniteNumber(value.ms);
  const at = asFiniteNumber(value.at);
  if (channelId === undefined || !Number.isSafeInteger(channelId) || channelId <= 0) return undefined;
  if (model === undefined || model === '' || model.length > MAX_MODEL_LENGTH) return undefined;
  if (ms === undefined || ms < 0 || at === undefined || at < 0) return undefined;
  return { kind: 'latency', channelId, model, ms, at };
}
