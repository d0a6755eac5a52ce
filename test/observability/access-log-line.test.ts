import { expect, test } from 'vitest';
import { writeAccessLog, type AccessEntry } from '../../src/observability/access-log.js';
import { createLogger } from '../../src/observability/logger.js';

const entry: AccessEntry = {
  requestId: 'c0ffee',
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  latencyMs: 12.6,
  ip: '203.0.113.9',
  userId: 7,
  keyId: 11,
  completed: true,
  outcome: {
    requestId: 'c0ffee',
    endpoint: 'chat-completions',
    model: 'gpt-4o',
    requestedModel: 'gpt-4o',
    channelId: 3,
    userId: 7,
    keyId: 11,
    stream: false,
    statusCode: 200,
    charged: true,
    tokens: { input: 20, cached: 8, cacheWrite: 4, output: 12, reasoning: 5 },
    cost: 140_000,
    latencyMs: 13,
    firstByteMs: 9,
    error: null,
    describeReply: undefined,
  },
};

/** The line as pino itself writes it from the same fields, for comparison. */
const expectedFields = {
  requestId: 'c0ffee',
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  latencyMs: 13,
  ip: '203.0.113.9',
  userId: 7,
  keyId: 11,
  endpoint: 'chat-completions',
  model: 'gpt-4o',
  channelId: 3,
  stream: false,
  tokens: { input: 20, cached: 8, cacheWrite: 4, output: 12, reasoning: 5 },
  costUsd: 0.00014,
  firstByteMs: 9,
};

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

test.each([
  ['a logger without bindings', {}],
  ['a child logger with bindings', { worker: 3, role: 'relay' }],
])('the access line is the line pino writes for the same fields: %s', (_name, bindings) => {
  const lines: string[] = [];
  const root = createLogger('info', 'json', { write: (line: string) => void lines.push(line) });
  const logger = Object.keys(bindings).length > 0 ? root.child(bindings) : root;
  writeAccessLog(logger, 'info', entry);
  logger.info(expectedFields, 'request');
  expect(lines).toHaveLength(2);
  expect(withoutTime(lines[0]!)).toBe(withoutTime(lines[1]!));
  expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, ...bindings, msg: 'request' });
});

test('the debug level is written with its own number', () => {
  const lines: string[] = [];
  const logger = createLogger('debug', 'json', { write: (line: string) => void lines.push(line) });
  writeAccessLog(logger, 'debug', { ...entry, outcome: undefined });
  expect(JSON.parse(lines[0]!)).toMatchObject({ level: 20, status: 200, msg: 'request' });
});

/** The members of an access line, built as an object in the documented order, for pino to write. */
function fieldsOf(line: AccessEntry): Record<string, unknown> {
  const { outcome } = line;
  return {
    requestId: line.requestId,
    method: line.method,
    path: line.path,
    status: line.status,
    latencyMs: Math.round(line.latencyMs),
    ip: line.ip,
    ...(line.userId !== undefined && { userId: line.userId }),
    ...(line.keyId !== undefined && { keyId: line.keyId }),
    ...(!line.completed && { aborted: true }),
    ...(outcome && {
      endpoint: outcome.endpoint,
      ...(outcome.model !== undefined && { model: outcome.model }),
      channelId: outcome.channelId,
      stream: outcome.stream,
      ...(outcome.tokens && { tokens: outcome.tokens }),
      costUsd: outcome.cost / 1e9,
      firstByteMs: outcome.firstByteMs,
      ...(outcome.error !== null && line.status < 400 && { streamError: true }),
    }),
  };
}

const outcome = entry.outcome!;
test.each<[string, AccessEntry]>([
  ['no relay outcome, no key', { ...entry, userId: undefined, keyId: undefined, outcome: undefined }],
  ['a client that left', { ...entry, completed: false }],
  [
    'a refusal before any channel',
    {
      ...entry,
      status: 503,
      outcome: {
        ...outcome,
        model: undefined,
        channelId: null,
        tokens: undefined,
        firstByteMs: null,
        cost: 0,
        error: 'no channel',
      },
    },
  ],
  [
    'a stream that ended with an error event',
    { ...entry, outcome: { ...outcome, stream: true, error: 'upstream closed' } },
  ],
  [
    'text that JSON must escape',
    {
      ...entry,
      path: '/v1/"odd"\\path\u0001\u2028é',
      ip: '::ffff:127.0.0.1',
      outcome: { ...outcome, model: 'm\n"x"' },
    },
  ],
])('the access line matches what pino writes for the same fields: %s', (_name, line) => {
  const lines: string[] = [];
  const logger = createLogger('info', 'json', { write: (text: string) => void lines.push(text) });
  writeAccessLog(logger, 'info', line);
  logger.info(fieldsOf(line), 'request');
  expect(withoutTime(lines[0]!)).toBe(withoutTime(lines[1]!));
});
