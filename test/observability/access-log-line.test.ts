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
