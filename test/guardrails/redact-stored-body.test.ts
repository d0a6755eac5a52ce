import { describe, expect, test } from 'vitest';
import { redactStoredBody } from '../../src/guardrails/redact-stored-body.js';

describe('redactStoredBody', () => {
  test('finds a secret right after a JSON escape, and keeps the escape', () => {
    const json = JSON.stringify({
      content: 'line one\nsk-ant-api03-AbCdEfGh1234567890XyZw and\t"ghp_' + 'a1'.repeat(18) + '"',
    });
    const redacted = redactStoredBody(json, { pii: false });
    expect(redacted).toBe(
      JSON.stringify({ content: 'line one\n[REDACTED:secret] and\t"[REDACTED:secret]"' }),
    );
  });

  test('an address right after an escape is redacted, the escape kept', () => {
    const json = JSON.stringify({ content: 'to:\nann@example.org' });
    expect(redactStoredBody(json, { pii: true })).toBe(JSON.stringify({ content: 'to:\n[REDACTED:email]' }));
  });

  test('without pii only credentials go: addresses, phones and cards stay', () => {
    const text =
      'data: {"t":"ann@example.org +44 20 7946 0958 4111 1111 1111 1111 eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}\n\n';
    expect(redactStoredBody(text, { pii: false })).toBe(
      'data: {"t":"ann@example.org +44 20 7946 0958 4111 1111 1111 1111 [REDACTED:secret]"}\n\n',
    );
  });

  test('a body without a credential comes back as the same string', () => {
    const text = '{"model":"gpt-4o","messages":[{"role":"user","content":"hello 123"}]}';
    expect(redactStoredBody(text, { pii: false })).toBe(text);
  });
});
