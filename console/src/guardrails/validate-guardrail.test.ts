import { describe, expect, it } from 'vitest';
import { guardrailToFormValues, type GuardrailFormValues } from './guardrail-form-values';
import { validateGuardrail } from './validate-guardrail';

const context = { takenNames: ['pii'] };

function values(changes: Partial<GuardrailFormValues>): GuardrailFormValues {
  return { ...guardrailToFormValues(), name: 'secrets', pattern: 'sk-[A-Za-z0-9]{20,}', ...changes };
}

describe('validateGuardrail', () => {
  it('accepts a named regex with a pattern, and a named webhook with an http(s) URL', () => {
    expect(validateGuardrail(values({}), context)).toEqual([]);
    const webhook = values({ kind: 'webhook', pattern: '', url: 'https://checks.example.com/guard' });
    expect(validateGuardrail(webhook, context)).toEqual([]);
    expect(validateGuardrail({ ...webhook, url: 'http://10.0.0.5:8080', timeoutMs: '' }, context)).toEqual(
      [],
    );
  });

  it('refuses a missing name and another guardrail’s', () => {
    expect(validateGuardrail(values({ name: ' ' }), context)).toEqual([
      { field: 'name', problem: 'required' },
    ]);
    expect(validateGuardrail(values({ name: 'pii ' }), context)).toEqual([
      { field: 'name', problem: 'taken' },
    ]);
  });

  it('needs a pattern for a regex, one that compiles', () => {
    expect(validateGuardrail(values({ pattern: '' }), context)).toEqual([
      { field: 'pattern', problem: 'required' },
    ]);
    expect(validateGuardrail(values({ pattern: '(unclosed' }), context)).toEqual([
      { field: 'pattern', problem: 'invalidPattern', reason: expect.stringContaining('(unclosed') },
    ]);
    // Unicode mode, as the gateway compiles it: a lone brace is an error there.
    expect(validateGuardrail(values({ pattern: 'price: {' }), context)).toMatchObject([
      { field: 'pattern', problem: 'invalidPattern' },
    ]);
  });

  it('needs an http or https URL for a webhook, and a whole timeout from 1 to 60000', () => {
    const webhook = values({ kind: 'webhook', pattern: '' });
    expect(validateGuardrail(webhook, context)).toEqual([{ field: 'url', problem: 'required' }]);
    expect(validateGuardrail({ ...webhook, url: 'ftp://example.com' }, context)).toEqual([
      { field: 'url', problem: 'invalidUrl' },
    ]);
    expect(validateGuardrail({ ...webhook, url: 'example.com/guard' }, context)).toEqual([
      { field: 'url', problem: 'invalidUrl' },
    ]);
    for (const timeoutMs of [0, 60001, 1.5]) {
      expect(validateGuardrail({ ...webhook, url: 'https://a.example', timeoutMs }, context)).toEqual([
        { field: 'timeoutMs', problem: 'timeoutRange' },
      ]);
    }
  });

  it('checks only the members of the chosen kind', () => {
    expect(validateGuardrail(values({ url: 'not a url', timeoutMs: 0 }), context)).toEqual([]);
    expect(
      validateGuardrail(values({ kind: 'webhook', pattern: '(', url: 'https://a.example' }), context),
    ).toEqual([]);
  });

  it('needs a group named unless every group is checked', () => {
    expect(validateGuardrail(values({ allGroups: false, groups: [] }), context)).toEqual([
      { field: 'groups', problem: 'noGroups' },
    ]);
    expect(validateGuardrail(values({ allGroups: false, groups: ['vip'] }), context)).toEqual([]);
  });
});
