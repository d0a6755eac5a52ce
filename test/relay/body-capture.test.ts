import { describe, expect, test } from 'vitest';
import { BodyCapture } from '../../src/relay/body-capture.js';

const capture = (requestBody: string, maxBytes = 1024, redactPii = false) =>
  new BodyCapture({ requestId: 'r1', requestBody: Buffer.from(requestBody), maxBytes, redactPii });

describe('BodyCapture', () => {
  test('stores nothing for a request that left no usage record', () => {
    const bodies = capture('{"a":1}');
    bodies.add('{"b":2}');
    expect(bodies.stored()).toBeUndefined();
  });

  test('keeps the request as received and the response chunks as written, text and bytes alike', () => {
    const bodies = capture('{ "model" : "m" }');
    bodies.recorded();
    bodies.add('data: {"x":"é');
    // A character split across two byte chunks, as an upstream's chunks may split it.
    const bytes = Buffer.from('ü"}\n\n');
    bodies.add(bytes.subarray(0, 1));
    bodies.add(bytes.subarray(1));
    expect(bodies.stored()).toMatchObject({
      requestId: 'r1',
      requestBody: '{ "model" : "m" }',
      responseBody: 'data: {"x":"éü"}\n\n',
      truncated: false,
    });
  });

  test('a response never written is null', () => {
    const bodies = capture('{}');
    bodies.recorded();
    expect(bodies.stored()?.responseBody).toBeNull();
  });

  test('past the limit: cut at a whole character, the cut token dropped, flagged; later chunks not kept', () => {
    const bodies = capture(`{"text":"${'€'.repeat(1000)}"}`, 1024);
    bodies.recorded();
    bodies.add(`data: ${'word '.repeat(150)}`);
    bodies.add(`${'a'.repeat(400)} and more`);
    bodies.add('never kept');
    const stored = bodies.stored()!;
    expect(stored.truncated).toBe(true);
    // 3 bytes per euro sign: the cut falls inside one, which is left out whole.
    expect(stored.requestBody).toBe(`{"text":"${'€'.repeat(338)}`);
    expect(stored.responseBody).toBe(`data: ${'word '.repeat(150)}`);
  });

  test('a secret cut in two by the limit leaves none of its characters', () => {
    const secret = `sk-${'Zz9'.repeat(20)}`;
    const body = `{"content":"${'x '.repeat(495)}${secret}"}`;
    const bodies = capture(body, 1024);
    bodies.recorded();
    const stored = bodies.stored()!;
    expect(stored.requestBody!.endsWith('x ')).toBe(true);
    expect(stored.requestBody).not.toContain('sk-');
  });

  test('credentials are redacted always, personal data only when asked', () => {
    const body = '{"content":"key sk-proj-AAAAbbbbCCCC1111dddd2222 mail me@example.com"}';
    const plain = capture(body);
    plain.recorded();
    expect(plain.stored()!.requestBody).toBe('{"content":"key [REDACTED:secret] mail me@example.com"}');
    const redacted = capture(body, 1024, true);
    redacted.recorded();
    expect(redacted.stored()!.requestBody).toBe('{"content":"key [REDACTED:secret] mail [REDACTED:email]"}');
  });

  test('a redaction that makes a body longer than the limit is cut again, and flagged', () => {
    const emails = Array.from({ length: 120 }, (_, index) => `a${index}@b.io`).join(' ');
    const bodies = capture(emails, 1024, true);
    bodies.recorded();
    const stored = bodies.stored()!;
    expect(Buffer.byteLength(stored.requestBody!)).toBeLessThanOrEqual(1024);
    expect(stored.truncated).toBe(true);
  });
});
