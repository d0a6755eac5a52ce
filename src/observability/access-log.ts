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
  // The members are written as text, in the order pino would write them from an object: building
  // that object (members added one by one, some only sometimes) and serialising it generically cost
  // more than the line's own text.
  let fields =
    `"requestId":${JSON.stringify(entry.requestId)},"method":${JSON.stringify(entry.method)}` +
    `,"path":${JSON.stringify(entry.path)},"status":${jsonNumber(entry.status)}` +
    `,"latencyMs":${jsonNumber(Math.round(entry.latencyMs))},"ip":${JSON.stringify(entry.ip)}`;
  if (entry.userId !== undefined) fields += `,"userId":${jsonNumber(entry.userId)}`;
  if (entry.keyId !== undefined) fields += `,"keyId":${jsonNumber(entry.keyId)}`;
  if (!entry.completed) fields += ',"aborted":true';
  if (outcome) {
    fields += `,"endpoint":${JSON.stringify(outcome.endpoint)}`;
    if (outcome.model !== undefined) fields += `,"model":${JSON.stringify(outcome.model)}`;
    fields += `,"channelId":${jsonNumber(outcome.channelId)},"stream":${outcome.stream}`;
    const { tokens } = outcome;
    if (tokens) {
      fields +=
        `,"tokens":{"input":${jsonNumber(tokens.input)},"cached":${jsonNumber(tokens.cached)}` +
        `,"cacheWrite":${jsonNumber(tokens.cacheWrite)},"output":${jsonNumber(tokens.output)}` +
        `,"reasoning":${jsonNumber(tokens.reasoning)}}`;
    }
    fields += `,"costUsd":${jsonNumber(outcome.cost / NANO_PER_USD)}`;
    fields += `,"firstByteMs":${jsonNumber(outcome.firstByteMs)}`;
    // A stream that ended with an error event after its 200: the status alone does not say it.
    if (outcome.error !== null && entry.status < 400) fields += ',"streamError":true';
  }
  writeAsPino(logger, level, `${fields},"msg":"request"`);
}

/** A number as `JSON.stringify` writes it: `null` for what JSON cannot hold. */
function jsonNumber(value: number | null): string {
  return value !== null && Number.isFinite(value) ? String(value) : 'null';
}

/**
 * Writes `fields` (JSON members without braces) to the logger's destination as the line pino
 * would write (level, time, the logger's bindings, the fields). Only for plain data: nothing here
 * is redacted or serialised by pino's rules.
 */
function writeAsPino(logger: Logger, level: AccessLogLevel, fields: string): void {
  const internals = logger as unknown as Record<symbol, unknown>;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const destination = internals[pino.symbols.streamSym] as pino.DestinationStream;
  destination.write(`{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings},${fields}}\n`);
}
