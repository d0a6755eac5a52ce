import { asFiniteNumber, asString, isJsonObject, type JsonObject } from '../../../protocols/wire-json.js';

/** The longest model a sticky choice names: the bound on public model ids (admin-api section 4). */
const MAX_MODEL_LENGTH = 256;
const STICKY_ID = /^[0-9a-f]{32}$/;

/** Where requests of one affinity key go: a channel, and the public model it serves them as. */
export interface StickyChoice {
  channelId: number;
  model: string;
}

/**
 * A sticky choice as workers and instances tell each other: the full entry (see `stickyId`) and
 * when it was decided (`at`, Unix milliseconds), so that the newest wins.
 */
export interface StickyUpdate {
  kind: 'sticky';
  id: string;
  channelId: number;
  model: string;
  /** Unix milliseconds until which the choice holds. */
  untilMs: number;
  at: number;
}

/** Reads an update received from elsewhere; undefined for anything malformed. */
export function readStickyUpdate(value: JsonObject): StickyUpdate | undefined {
  if (value.kind !== 'sticky') return undefined;
  const id = asString(value.id);
  const choice = readStickyChoice(value);
  const untilMs = asFiniteNumber(value.untilMs);
  const at = asFiniteNumber(value.at);
  if (id === undefined || !STICKY_ID.test(id) || choice === undefined) return undefined;
  if (untilMs === undefined || untilMs < 0 || at === undefined || at < 0) return undefined;
  return { kind: 'sticky', id, channelId: choice.channelId, model: choice.model, untilMs, at };
}

export function sameChoice(left: StickyChoice, right: StickyChoice): boolean {
  return left.channelId === right.channelId && left.model === right.model;
}

/** Reads the `channelId` and `model` of a stored or received choice; undefined when malformed. */
export function readStickyChoice(value: unknown): StickyChoice | undefined {
  if (!isJsonObject(value)) return undefined;
  const channelId = asFiniteNumber(value.channelId);
  const model = asString(value.model);
  if (channelId === undefined || !Number.isSafeInteger(channelId) || channelId <= 0) return undefined;
  if (model === undefined || model === '' || model.length > MAX_MODEL_LENGTH) return undefined;
  return { channelId, model };
}
