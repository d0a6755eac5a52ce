import pino from 'pino';
import type { RequestOutcome } from '../relay/relay-observer.js';
import { NANO_PER_USD } from '../billing/money.js';
import type { Logger } from './logger.js';

/** One HTTP request as it ended, in plain data. */
export interface AccessEntry {
  requestId: string;
  method: string;
  /** The path without the query string (Gemini clients may put their key there). */
  path: string;
  status: number;
  latencyMs: number;
  ip: string;
  userId: number | undefined;
  keyId: number | undefined;
  /** False when the connection closed before the whole answer was sent. */
  completed: boolean;
  /** How the relay ended the request, for relayed requests. */
  outcome: RequestOutcome | undefined;
}

export type AccessLogLevel = 'info' | 'debug';

/**
 * The access log: one line per request, with what an operator asks of it (who, what, how it ended,
 * how long it took, what it cost) and nothing else: no bodies, no headers, no keys, no query string.
 */
export function writeAccessLog(logger: Logger, level: AccessLogLevel, entry: AccessEntry): void {
  const { outcome } = entry;
  const line: Record<string, unknown> = {
    requestId: entry.requestId,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    latencyMs: Math.round(entry.latencyMs),
    ip: entry.ip,
  };
  if (entry.userId !== undefined) line.userId = entry.userId;
  if (entry.keyId !== undefined) line.keyId = entry.keyId;
  if (!entry.completed) line.aborted = true;
  if (outcome) {
    line.endpoint = outcome.endpoint;
    if (outcome.model !== undefined) line.model = outcome.model;
    line.channelId = outcome.channelId;
    line.stream = outcome.stream;
    if (outcome.tokens) line.tokens = outcome.tokens;
    line.costUsd = outcome.cost / NANO_PER_USD;
    line.firstByteMs = outcome.firstByteMs;
    // A stream that ended with an error event after its 200: the status alone does not say it.
    if (outcome.error !== null && entry.status < 400) line.streamError = true;
  }
  line.msg = 'request';
  writeAsPino(logger, level, line);
}

/**
 * Writes `fields` to the logger's destination as the line pino would write (level, time, the
 * logger's bindings, the fields in order), in one `JSON.stringify`: pino serialises member by
 * member, and for this line, written for every request, that cost as much as the rest of the
 * request's logging. Only for plain data: nothing here is redacted or serialised by pino's rules.
 */
function writeAsPino(logger: Logger, level: AccessLogLevel, fields: Record<string, unknown>): void {
  const internals = logger as unknown as Record<symbol, unknown>;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const destination = internals[pino.symbols.streamSym] as pino.DestinationStream;
  const head = `{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings}`;
  destination.write(`${head},${JSON.stringify(fields).slice(1)}\n`);
}
