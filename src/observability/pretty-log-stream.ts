import { isJsonObject, parseJson } from '../protocols/wire-json.js';

/** pino's numeric levels, by name. */
const LEVELS: ReadonlyMap<number, string> = new Map([
  [10, 'TRACE'],
  [20, 'DEBUG'],
  [30, 'INFO '],
  [40, 'WARN '],
  [50, 'ERROR'],
  [60, 'FATAL'],
]);

/** Keys shown at the start of a line, or not at all, rather than as `key=value`. */
const OWN_KEYS = new Set(['level', 'time', 'msg', 'err']);

/**
 * `GATEWAY_LOG_FORMAT=pretty`: each JSON line pino writes, as one line a person reads at a terminal:
 * time, level, message, then `key=value` pairs (objects as JSON), and an error's stack below it.
 * In process and synchronous, so no transport thread is started for it.
 */
export function prettyLogStream(out: { write(text: string): unknown } = process.stdout): {
  write(line: string): void;
} {
  return {
    write(line: string) {
      out.write(formatLogLine(line));
    },
  };
}

export function formatLogLine(line: string): string {
  const parsed = parseJson(line);
  if (!parsed.ok || !isJsonObject(parsed.value)) return line.endsWith('\n') ? line : `${line}\n`;
  const entry = parsed.value;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const level = (typeof entry.level === 'number' && LEVELS.get(entry.level)) || String(entry.level);
  const fields: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (OWN_KEYS.has(key) || value === undefined) continue;
    fields.push(`${key}=${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`);
  }
  const message = typeof entry.msg === 'string' ? entry.msg : '';
  let text = [time, level, message, ...fields].filter((part) => part !== '').join(' ');
  const error = entry.err;
  if (isJsonObject(error)) {
    const stack = typeof error.stack === 'string' ? error.stack : JSON.stringify(error);
    text += `\n    ${stack.split('\n').join('\n    ')}`;
  }
  return `${text}\n`;
}

/** Plain words as they are; anything with spaces, quotes or `=` in JSON quotes. */
function quoted(value: string): string {
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}
