import pino from 'pino';
import { prettyLogStream } from './pretty-log-stream.js';

export type Logger = pino.Logger;

export type LogFormat = 'json' | 'pretty';

/**
 * JSON lines on stdout, or lines for people (`GATEWAY_LOG_FORMAT=pretty`). Keys, tokens and
 * passwords are never passed to it; redaction is a second guard.
 */
export function createLogger(
  level: string,
  format: LogFormat = 'json',
  /** Where lines go; stdout by default. */
  destination: pino.DestinationStream = pino.destination(1),
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: [
      'req.headers.authorization',
      'req.headers["x-api-key"]',
      'req.headers["x-goog-api-key"]',
      '*.keys',
      '*.password',
    ],
  };
  return pino(options, format === 'pretty' ? prettyLogStream(destination) : destination);
}
