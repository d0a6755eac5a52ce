import pino from 'pino';
import { prettyLogStream } from './pretty-log-stream.js';

export type Logger = pino.Logger;

export type LogFormat = 'json' | 'pretty';

/**
 * Lines are gathered and written to stdout together, 4 KiB or 100 ms at a time (whichever comes
 * first), and whatever is left is written when the process exits: a write per line would cost
 * more than the rest of a relayed request's logging. A SIGKILL loses at most the last 100 ms of lines.
 */
function bufferedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, minLength: 4096, periodicFlush: 100 });
}

/**
 * JSON lines on stdout, or lines for people (`GATEWAY_LOG_FORMAT=pretty`). Keys, tokens and
 * passwords are never passed to it; redaction is a second guard.
 */
export function createLogger(
  level: string,
  format: LogFormat = 'json',
  /** Where lines go; stdout by default. */
  destination: pino.DestinationStream = bufferedStdout(),
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
