import { describe, expect, it } from 'vitest';
import { describeTransportError } from '../../src/providers/describe-transport-error.js';
import { readUpstreamErrorMessage } from '../../src/providers/read-upstream-error-message.js';

describe('readUpstreamErrorMessage', () => {
  it.each([
    ['{"error":{"message":"Bad key","type":"invalid_request_error"}}', 'Bad key'],
    ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'Overloaded'],
    ['[{"error":{"code":429,"message":"Quota","status":"RESOURCE_EXHAUSTED"}}]', 'Quota'],
    ['{"error":"plain"}', 'plain'],
    ['{"message":"top level"}', 'top level'],
    ['upstream exploded\n  badly', 'upstream exploded badly'],
    ['<html><body>502</body></html>', undefined],
    ['', undefined],
    ['{"unrelated":true}', undefined],
  ])('%s', (body, expected) => {
    expect(readUpstreamErrorMessage(body)).toBe(expected);
  });

  it('shortens long messages', () => {
    expect(readUpstreamErrorMessage(JSON.stringify({ error: { message: 'x'.repeat(1000) } }))).toHaveLength(
      303,
    );
  });
});

describe('describeTransportError', () => {
  it('uses the message, the code, or every address tried', () => {
    expect(describeTransportError(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(describeTransportError(Object.assign(new Error(''), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(
      describeTransportError(
        new AggregateError([
          new Error('connect ECONNREFUSED ::1:1'),
          new Error('connect ECONNREFUSED 127.0.0.1:1'),
        ]),
      ),
    ).toBe('connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1');
    expect(describeTransportError(new Error('fetch failed', { cause: new Error('other side closed') }))).toBe(
      'fetch failed: other side closed',
    );
    expect(describeTransportError('weird')).toBe('weird');
  });
});
