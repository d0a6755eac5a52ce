import pino from 'pino';
import { prettyLogStream } from './pretty-log-stream.js';

export type Logger = pino.Logger;

export type LogFormat = 'json' | 'pretty';

/**
 * Lines are gathered and written to stdout together, 4 KiB or 100 ms at a time (whichever comes
 * first), and whatever is left is written when the process exits: a write per line would cost
 * more than the rest of a relayed request's logging. A SIGKILL loses at most the last 100 ms of lines.
 *
 * They are gathered as bytes: gathering text, sonic-boom appends each line to one string and
 * measures its UTF-8 length, which copies the whole string again on every line.
 */
class BufferedStdout implements pino.DestinationStream {
  private readonly sink = pino.destination({
    dest: 1,
    minLength: 4096,
    periodicFlush: 100,
    contentMode: 'buffer',
  });

  write(line: string): boolean {
    // In buffer mode sonic-boom takes Buffers; its types know only text.
    return this.sink.write(Buffer.from(line) as unknown as string);
  }

  flush(callback?: (error?: Error) => void): void {
    this.sink.flush(callback);
  }

  flushSync(): void {
    this.sink.flushSync();
  }
}

/**
 * JSON lines on stdout, or lines for people (`GATEWAY_LOG_FORMAT=pretty`). Keys, tokens and
 * passwords are never passed to it; redaction is a second guard.
 */
export function createLogger(
  level: string,
  format: LogFormat = 'json',
  /** Where lines go; stdout by default. */
  destination: pino.DestinationStream = new BufferedStdout(),
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
