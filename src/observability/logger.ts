import pino from 'pino';
import { prettyLogStream } from './pretty-log-stream.js';
import { StdoutBatch, stdoutBatchBytes } from './stdout-batch.js';

export type Logger = pino.Logger;

export type LogFormat = 'json' | 'pretty';

let stdout: StdoutBatch | undefined;

/**
 * The process's one stdout in batches (see `StdoutBatch`, and `stdoutBatchBytes` for their size),
 * the last written as the process exits.
 */
export function batchedStdout(stdoutIs: 'shared' | 'alone' = 'alone'): StdoutBatch {
  if (stdout) return stdout;
  const batch = new StdoutBatch({ batchBytes: stdoutBatchBytes(stdoutIs) });
  process.once('exit', () => batch.flushSync());
  return (stdout = batch);
}

/**
 * JSON lines on stdout, or lines for people (`GATEWAY_LOG_FORMAT=pretty`). Keys, tokens and
 * passwords are never passed to it; redaction is a second guard.
 */
export function createLogger(
  level: string,
  format: LogFormat = 'json',
  /** Where lines go; stdout by default. */
  destination: pino.DestinationStream = batchedStdout(),
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
      '*.webhook_secret',
      '*.stripe_secret_key',
      '*.stripe_webhook_secret',
      'req.headers["stripe-signature"]',
    ],
  };
  return pino(options, format === 'pretty' ? prettyLogStream(destination) : destination);
}
