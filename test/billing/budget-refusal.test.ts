import { describe, expect, it } from 'vitest';
import { budgetExceededError, concurrencyLimitError } from '../../src/billing/budgets/budget-refusal.js';
import { renderError } from '../../src/http/render-error.js';
import type { RequestContext } from '../../src/http/request-context.js';

// admin-api section 10, rules 3 and 4: what a client hears when a window or a concurrency cap refuses it.

const now = Date.parse('2026-12-06T10:00:00.250Z');
const context = (errorShape: RequestContext['errorShape'], language: RequestContext['language'] = 'en') =>
  ({
    requestId: 'req-1',
    clientIp: '127.0.0.1',
    language,
    errorShape,
    principal: undefined,
    startedAt: 0,
  }) as RequestContext;

describe('budget refusals', () => {
  it('a key day window in USD: 429, the message of rule 3, Retry-After to the reset', () => {
    const error = budgetExceededError({
      scope: { kind: 'key' },
      period: 'day',
      limit: { dimension: 'usd', value: 5_000_000_000 },
      resetsAtMs: Date.parse('2026-12-07T00:00:00Z'),
      nowMs: now,
    });
    expect(error.status).toBe(429);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toBe(
      'key budget exceeded: day limit $5.000000 reached, resets at 2026-12-07T00:00:00Z',
    );
    // 13 h 59 min 59.75 s left: whole seconds, rounded up.
    expect(error.headers['retry-after']).toBe('50400');
  });

  it('names a group, and tokens and requests limits as counts', () => {
    const group = budgetExceededError({
      scope: { kind: 'group', name: 'research' },
      period: 'month',
      limit: { dimension: 'tokens', value: 1_000_000 },
      resetsAtMs: Date.parse('2027-01-01T00:00:00Z'),
      nowMs: now,
    });
    expect(group.message).toBe(
      'group research budget exceeded: month limit 1000000 tokens reached, resets at 2027-01-01T00:00:00Z',
    );
    const user = budgetExceededError({
      scope: { kind: 'user' },
      period: 'hours',
      limit: { dimension: 'requests', value: 100 },
      resetsAtMs: now + 1_500,
      nowMs: now,
    });
    expect(user.message).toBe(
      'user budget exceeded: hours limit 100 requests reached, resets at 2026-12-06T10:00:01Z',
    );
    expect(user.headers['retry-after']).toBe('2');
  });

  it('a total window: 403, resets never, no Retry-After', () => {
    const error = budgetExceededError({
      scope: { kind: 'user' },
      period: 'total',
      limit: { dimension: 'usd', value: 123_456_789 },
      resetsAtMs: null,
      nowMs: now,
    });
    expect(error.status).toBe(403);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toBe('user budget exceeded: total limit $0.123457 reached, resets never');
    expect(error.headers['retry-after']).toBeUndefined();
  });

  it('is rendered in the family A shape even on /v1/messages, in both languages', () => {
    const error = budgetExceededError({
      scope: { kind: 'key' },
      period: 'week',
      limit: { dimension: 'requests', value: 3 },
      resetsAtMs: Date.parse('2026-12-07T00:00:00Z'),
      nowMs: now,
    });
    expect(renderError(error, context('anthropic')).body).toEqual({
      error: {
        message:
          'key budget exceeded: week limit 3 requests reached, resets at 2026-12-07T00:00:00Z (request id: req-1)',
        type: 'gateway_api_error',
        param: '',
        code: 'budget_exceeded',
      },
    });
    const chinese = renderError(error, context('openai', 'zh-CN')).body as { error: { message: string } };
    expect(chinese.error.message).toBe(
      'key 预算已用尽: week 限额 3 requests, 重置时间 2026-12-07T00:00:00Z (request id: req-1)',
    );
  });
});

describe('concurrency refusals', () => {
  it('429 with Retry-After 1 and the limit in the message', () => {
    const error = concurrencyLimitError(4);
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 429,
      code: 'concurrency_limit_exceeded',
      message: 'too many concurrent requests (limit 4)',
    });
    expect(error.headers).toEqual({ 'retry-after': '1' });
    expect(renderError(error, context('anthropic')).status).toBe(429);
  });
});
