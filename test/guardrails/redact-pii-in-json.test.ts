import { describe, expect, it } from 'vitest';
import { redactPiiInJson } from '../../src/guardrails/redact-pii-in-json.js';

describe('redactPiiInJson', () => {
  it('redacts every string value, at any depth, and leaves keys, numbers and the shape', () => {
    const body = {
      model: 'gpt-4o',
      max_tokens: 4111111111111111,
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [{ type: 'text', text: 'My card is 4111 1111 1111 1111, mail me at ann@example.com' }],
        },
      ],
      metadata: { 'ann@example.com': 'owner', tags: ['+44 20 7946 0958', null, true, 3.5] },
    };
    expect(redactPiiInJson(body)).toEqual({
      model: 'gpt-4o',
      max_tokens: 4111111111111111,
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [{ type: 'text', text: 'My card is [REDACTED:card], mail me at [REDACTED:email]' }],
        },
      ],
      metadata: { 'ann@example.com': 'owner', tags: ['[REDACTED:phone]', null, true, 3.5] },
    });
  });

  it('returns the value itself when nothing changed, so it need not be serialised again', () => {
    const body = {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hello in 2024!' }],
      n: 1,
      stream: true,
    };
    expect(redactPiiInJson(body)).toBe(body);
    expect(redactPiiInJson([body, ['x']])).toEqual([body, ['x']]);
    const list = [body, ['x']];
    expect(redactPiiInJson(list)).toBe(list);
    for (const primitive of [null, 0, true, 'plain words'])
      expect(redactPiiInJson(primitive)).toBe(primitive);
  });

  it('copies only what changed: unchanged members stay the same objects, and the input is not touched', () => {
    const untouched = { role: 'system', content: 'Be brief.' };
    const changed = { role: 'user', content: 'ann@example.com' };
    const body = { messages: [untouched, changed], options: { a: 1 } };
    const redacted = redactPiiInJson(body) as typeof body;
    expect(redacted).not.toBe(body);
    expect(redacted.messages[0]).toBe(untouched);
    expect(redacted.options).toBe(body.options);
    expect(redacted.messages[1]).toEqual({ role: 'user', content: '[REDACTED:email]' });
    expect(changed.content).toBe('ann@example.com');
    expect(Object.keys(redacted)).toEqual(['messages', 'options']);
  });

  it('keeps a __proto__ member an own member', () => {
    const body = JSON.parse('{"a":"x","__proto__":{"b":"ann@example.com"},"c":"ann@example.com"}') as object;
    const redacted = redactPiiInJson(body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted)).toEqual(['a', '__proto__', 'c']);
    expect(JSON.stringify(redacted)).toBe(
      '{"a":"x","__proto__":{"b":"[REDACTED:email]"},"c":"[REDACTED:email]"}',
    );
  });
});
