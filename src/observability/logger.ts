import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on stdout. Keys, tokens and passwords are never passed to it; redaction is a second guard. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: [
      'req.headers.authorization',
      'req.headers["x-api-key"]',
      'req.headers["x-goog-api-key"]',
      '*.keys',
      '*.password',
    ],
  });
}
