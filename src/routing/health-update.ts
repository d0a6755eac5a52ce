import { asBoolean, asFiniteNumber, asString, isJsonObject } from '../protocols/wire-json.js';
import { readStickyUpdate, type StickyUpdate } from './policy/affinity/sticky-update.js';
import type { PairHold } from './channel-health.js';
import { readLatencyUpdate, type LatencyUpdate } from './policy/latency/latency-update.js';

/** The longest upstream message a hold carries (what `readUpstreamErrorMessage` keeps, and more). */
const MAX_HOLD_MESSAGE_LENGTH = 1024;

/**
 * One change of shared routing state, as instances tell each other: channel health, and what
 * routing policy learns from traffic (first-byte latency, sticky choices). All of it is soft state
 * that traffic relearns. Each carries the full new state of its entry and when it was decided
 * (`at`, Unix milliseconds): the newest wins.
 */
export type HealthUpdate = PairUpdate | KeyUpdate | LatencyUpdate | StickyUpdate;

/** A (channel, public model) circuit breaker: `failures` 0 means closed. */
export interface PairUpdate {
  kind: 'pair';
  channelId: number;
  model: string;
  failures: number;
  /** Unix milliseconds until which the pair cools down; 0 when healthy. */
  untilMs: number;
  /** The hold after an upstream 429 with `Retry-After`, when one is decided (see `PairHold`). */
  hold?: PairHold | undefined;
  at: number;
}

/** A channel key refused by its upstream (401/403), or restored. */
export interface KeyUpdate {
  kind: 'key';
  channelId: number;
  /** `keyFingerprint` of the key, never the key itself. */
  key: string;
  refused: boolean;
  at: number;
}

/** Reads an update received from another instance; undefined for anything malformed. */
export function readHealthUpdate(value: unknown): HealthUpdate | undefined {
  if (!isJsonObject(value)) return undefined;
  if (value.kind === 'latency') return readLatencyUpdate(value);
  if (value.kind === 'sticky') return readStickyUpdate(value);
  const channelId = asFiniteNumber(value.channelId);
  const at = asFiniteNumber(value.at);
  if (channelId === undefined || !Number.isSafeInteger(channelId) || channelId <= 0) return undefined;
  if (at === undefined || at < 0) return undefined;
  if (value.kind === 'pair') {
    const model = asString(value.model);
    const failures = asFiniteNumber(value.failures);
    const untilMs = asFiniteNumber(value.untilMs);
    if (model === undefined || failures === undefined || untilMs === undefined) return undefined;
    if (!Number.isSafeInteger(failures) || failures < 0) return undefined;
    if (value.hold === undefined) return { kind: 'pair', channelId, model, failures, untilMs, at };
    const hold = readHold(value.hold);
    return hold && { kind: 'pair', channelId, model, failures, untilMs, hold, at };
  }
  if (value.kind === 'key') {
    const key = asString(value.key);
    const refused = asBoolean(value.refused);
    if (key === undefined || !/^[0-9a-f]{8,64}$/.test(key) || refused === undefined) return undefined;
    return { kind: 'key', channelId, key, refused, at };
  }
  return undefined;
}

function readHold(value: unknown): PairHold | undefined {
  if (!isJsonObject(value)) return undefined;
  const untilMs = asFiniteNumber(value.untilMs);
  const message = asString(value.message);
  if (untilMs === undefined || untilMs < 0 || message === undefined) return undefined;
  if (message.length > MAX_HOLD_MESSAGE_LENGTH) return undefined;
  return { untilMs, message };
}
