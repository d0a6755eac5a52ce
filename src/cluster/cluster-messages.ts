import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { CHANGE_TOPICS, type ChangeTopic } from '../events/change-feed.js';
import type { AttemptDecision, AttemptTicket } from '../limits/login-throttle.js';
import type { RateDecision, RateLease, RateLimits } from '../limits/rate-limiter.js';
import { readHealthUpdate, type HealthUpdate } from '../routing/health-update.js';
import { asFiniteNumber, asString, isJsonObject, type JsonObject } from '../protocols/wire-json.js';

/**
 * What the primary and its workers say to each other over the cluster's IPC channel. A call
 * expects one reply (matched by id); a notice expects none. Every message carries the `gateway`
 * tag so that anything else sent on the channel is ignored.
 */
export interface Calls {
  /**
   * Worker to primary: the tokens used since the last call, then, in order, for each request:
   * count it against its key's machine-wide limits, or refuse it; and for each key limited by
   * `rpm` alone, a lease of requests counted ahead. One call carries every request that arrived
   * while the worker's event loop took one turn.
   */
  admit: {
    request: { tokens: TokenCounts; requests: AdmitRequest[]; leases: LeaseRequest[] };
    reply: { decisions: RateDecision[]; leases: RateLease[] };
  };
  /**
   * Worker to primary: stored data changed; the reply comes once every other ready worker reloaded.
   * Primary to worker: reload what the topic covers, then reply.
   */
  change: { request: { topic: ChangeTopic }; reply: true };
  /** Worker to primary, before it listens: its caches are loaded; changes it missed meanwhile come first. */
  join: { request: Record<string, never>; reply: true };
  /** Worker to primary: a console sign-in attempt starts (counted for the whole machine), or is refused. */
  loginBegin: { request: { subjects: string[] }; reply: AttemptDecision };
  /** Worker to primary: the attempt succeeded; it stops counting, and `clear` forgets failures. */
  loginSucceed: { request: { ticket: AttemptTicket; clear: string[] }; reply: true };
  /** Worker to primary: the metrics of every worker, aggregated, in Prometheus text format. */
  metrics: { request: Record<string, never>; reply: string };
  /** Primary to worker: this worker's own metrics, as prom-client reads them out. */
  collectMetrics: { request: Record<string, never>; reply: MetricSnapshot };
}

/** One process's metrics, as `Registry.getMetricsAsJSON()` gives them. */
export type MetricSnapshot = MetricObjectWithValues<MetricValue<string>>[];

export interface AdmitRequest {
  keyId: number;
  limits: RateLimits;
}

/** A key limited by `rpm` alone, with the requests of it waiting in the worker now. */
export interface LeaseRequest {
  keyId: number;
  rpm: number;
  wanted: number;
}

/** Tokens used by finished requests, summed per key. */
export type TokenCounts = [keyId: number, tokens: number][];

/** Requests a lease counted ahead and no request used, with the window they were counted in. */
export type UnusedLeases = [keyId: number, count: number, windowStart: number][];

export interface Notices {
  /** Worker to primary: tokens used by finished requests, when no admission call carries them soon. */
  tokens: { counts: TokenCounts };
  /** Worker to primary: leases that ran out of time or of their window with requests unused. */
  giveBack: { unused: UnusedLeases };
  /** Either way: one change of channel health, for every other worker. */
  health: { update: HealthUpdate };
  /** Worker to primary: it accepts connections (on the primary's shared port). */
  listening: { address: string };
}

export type CallName = keyof Calls;
export type NoticeName = keyof Notices;

export type Envelope =
  | { gateway: 'call'; id: number; op: CallName; body: JsonObject }
  | { gateway: 'reply'; id: number; body: unknown; error?: string }
  | { gateway: 'notice'; op: NoticeName; body: JsonObject };

const topics = new Set<string>(CHANGE_TOPICS);

const readLimit = (value: unknown): number | null | undefined =>
  value === null ? null : asFiniteNumber(value);

function readAdmitRequest(value: unknown): AdmitRequest | undefined {
  if (!isJsonObject(value)) return undefined;
  const keyId = asFiniteNumber(value.keyId);
  const limits = isJsonObject(value.limits) ? value.limits : {};
  const rpm = readLimit(limits.rpm);
  const tpm = readLimit(limits.tpm);
  if (keyId === undefined || rpm === undefined || tpm === undefined) return undefined;
  return { keyId, limits: { rpm, tpm } };
}

function readLeaseRequest(value: unknown): LeaseRequest | undefined {
  if (!isJsonObject(value)) return undefined;
  const keyId = asFiniteNumber(value.keyId);
  const rpm = asFiniteNumber(value.rpm);
  const wanted = asFiniteNumber(value.wanted);
  return keyId === undefined || rpm === undefined || wanted === undefined
    ? undefined
    : { keyId, rpm, wanted };
}

function readLease(value: unknown): RateLease | undefined {
  if (!isJsonObject(value)) return undefined;
  const granted = asFiniteNumber(value.granted);
  const windowStart = asFiniteNumber(value.windowStart);
  if (granted === undefined || windowStart === undefined) return undefined;
  if (value.retryAfterSeconds === undefined) return { granted, windowStart };
  const retryAfterSeconds = asFiniteNumber(value.retryAfterSeconds);
  return retryAfterSeconds === undefined ? undefined : { granted, windowStart, retryAfterSeconds };
}

/** A list of number tuples of `width`, or nothing when one is malformed. */
function readNumberTuples<Tuple extends number[]>(
  value: unknown,
  width: Tuple['length'],
): Tuple[] | undefined {
  return readAll(value, (entry) => {
    if (!Array.isArray(entry) || entry.length !== width) return undefined;
    const numbers = (entry as unknown[]).map(asFiniteNumber);
    return numbers.every((number) => number !== undefined) ? (numbers as Tuple) : undefined;
  });
}

const readTokenCounts = (value: unknown) => readNumberTuples<TokenCounts[number]>(value, 2);

const readText = (value: unknown) => asString(value);

function readTicket(value: unknown): AttemptTicket | undefined {
  if (!isJsonObject(value)) return undefined;
  const id = asString(value.id);
  const subjects = readAll(value.subjects, readText);
  return id !== undefined && subjects ? { id, subjects } : undefined;
}

function readAttemptDecision(value: unknown): AttemptDecision | undefined {
  if (!isJsonObject(value)) return undefined;
  if (value.allowed === true) {
    const ticket = readTicket(value.ticket);
    return ticket && { allowed: true, ticket };
  }
  const retryAfterSeconds = asFiniteNumber(value.retryAfterSeconds);
  return value.allowed === false && retryAfterSeconds !== undefined
    ? { allowed: false, retryAfterSeconds }
    : undefined;
}

function readDecision(value: unknown): RateDecision | undefined {
  if (!isJsonObject(value)) return undefined;
  if (value.allowed === true) return { allowed: true };
  const retryAfterSeconds = asFiniteNumber(value.retryAfterSeconds);
  if (value.allowed !== false || retryAfterSeconds === undefined) return undefined;
  if (value.limit !== 'rpm' && value.limit !== 'tpm') return undefined;
  return { allowed: false, limit: value.limit, retryAfterSeconds };
}

/** Reads every item of a list, or nothing when one is malformed. */
function readAll<T>(value: unknown, readItem: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: T[] = [];
  for (const item of value as unknown[]) {
    const read = readItem(item);
    if (read === undefined) return undefined;
    items.push(read);
  }
  return items;
}

/** Checks a call's body for its operation; undefined when malformed. */
export const readCall: { [Name in CallName]: (body: JsonObject) => Calls[Name]['request'] | undefined } = {
  admit(body) {
    const tokens = readTokenCounts(body.tokens);
    const requests = readAll(body.requests, readAdmitRequest);
    const leases = readAll(body.leases, readLeaseRequest);
    return tokens && requests && leases ? { tokens, requests, leases } : undefined;
  },
  change(body) {
    const topic = asString(body.topic);
    return topic !== undefined && topics.has(topic) ? { topic: topic as ChangeTopic } : undefined;
  },
  join: () => ({}),
  loginBegin(body) {
    const subjects = readAll(body.subjects, readText);
    return subjects && { subjects };
  },
  loginSucceed(body) {
    const ticket = readTicket(body.ticket);
    const clear = readAll(body.clear, readText);
    return ticket && clear ? { ticket, clear } : undefined;
  },
  metrics: () => ({}),
  collectMetrics: () => ({}),
};

/** Checks a reply for the operation it answers; undefined when malformed. */
export const readReply: { [Name in CallName]: (body: unknown) => Calls[Name]['reply'] | undefined } = {
  admit(body) {
    if (!isJsonObject(body)) return undefined;
    const decisions = readAll(body.decisions, readDecision);
    const leases = readAll(body.leases, readLease);
    return decisions && leases ? { decisions, leases } : undefined;
  },
  change: (body) => (body === true ? true : undefined),
  join: (body) => (body === true ? true : undefined),
  loginBegin: readAttemptDecision,
  loginSucceed: (body) => (body === true ? true : undefined),
  metrics: (body) => asString(body),
  collectMetrics: (body) => readAll(body, readMetric) as MetricSnapshot | undefined,
};

/** A metric family's shape, enough for prom-client to aggregate it; its values are prom-client's own. */
function readMetric(value: unknown): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  const { name, help, type, values } = value;
  return typeof name === 'string' &&
    typeof help === 'string' &&
    typeof type === 'string' &&
    Array.isArray(values)
    ? value
    : undefined;
}

/** Checks a notice's body for its operation; undefined when malformed. */
export const readNotice: { [Name in NoticeName]: (body: JsonObject) => Notices[Name] | undefined } = {
  tokens(body) {
    const counts = readTokenCounts(body.counts);
    return counts && { counts };
  },
  giveBack(body) {
    const unused = readNumberTuples<UnusedLeases[number]>(body.unused, 3);
    return unused && { unused };
  },
  health(body) {
    const update = readHealthUpdate(body.update);
    return update ? { update } : undefined;
  },
  listening(body) {
    const address = asString(body.address);
    return address === undefined ? undefined : { address };
  },
};

const callNames = new Set<string>(Object.keys(readCall));
const noticeNames = new Set<string>(Object.keys(readNotice));

/** Narrows a message received on the IPC channel to one of ours; undefined for anything else. */
export function readEnvelope(message: unknown): Envelope | undefined {
  if (!isJsonObject(message)) return undefined;
  const id = asFiniteNumber(message.id);
  switch (message.gateway) {
    case 'call':
      if (id === undefined || !callNames.has(String(message.op)) || !isJsonObject(message.body)) return;
      return { gateway: 'call', id, op: message.op as CallName, body: message.body };
    case 'reply': {
      if (id === undefined) return undefined;
      const error = asString(message.error);
      return { gateway: 'reply', id, body: message.body, ...(error !== undefined && { error }) };
    }
    case 'notice':
      if (!noticeNames.has(String(message.op)) || !isJsonObject(message.body)) return undefined;
      return { gateway: 'notice', op: message.op as NoticeName, body: message.body };
    default:
      return undefined;
  }
}
