import { describe, expect, it } from 'vitest';
import type { Guardrail } from './guardrail';
import { guardrailFormPathOfParam } from './guardrail-form-path-of-param';
import {
  formValuesToGuardrailFields,
  guardrailChanges,
  guardrailToFormValues,
} from './guardrail-form-values';

const regex: Guardrail = {
  id: 3,
  name: 'secrets',
  kind: 'regex',
  pattern: 'sk-[A-Za-z0-9]{20,}',
  url: null,
  action: 'block',
  fail: 'closed',
  timeout_ms: 1000,
  groups: null,
  created_at: 1_700_000_000,
  managed: 'api',
};

const webhook: Guardrail = {
  ...regex,
  id: 4,
  name: 'moderation',
  kind: 'webhook',
  pattern: null,
  url: 'https://checks.example.com/guard',
  action: 'log',
  fail: 'open',
  timeout_ms: 2500,
  groups: ['vip', 'trial'],
};

describe('guardrail form values', () => {
  it('starts a new one as a blocking regex for every group, webhooks failing closed after 1000 ms', () => {
    expect(guardrailToFormValues()).toEqual({
      name: '',
      kind: 'regex',
      pattern: '',
      url: '',
      action: 'block',
      fail: 'closed',
      timeoutMs: 1000,
      allGroups: true,
      groups: [],
    });
  });

  it('creates a regex with its pattern as typed, without the webhook members', () => {
    const values = { ...guardrailToFormValues(), name: ' secrets ', pattern: ' sk-\\w+ ', url: 'left over' };
    expect(formValuesToGuardrailFields(values)).toEqual({
      name: 'secrets',
      kind: 'regex',
      pattern: ' sk-\\w+ ',
      action: 'block',
      groups: null,
    });
  });

  it('creates a webhook with its URL, failure mode and timeout, an empty timeout as 1000', () => {
    const values = {
      ...guardrailToFormValues(),
      name: 'moderation',
      kind: 'webhook',
      pattern: 'left over',
      url: ' https://checks.example.com/guard ',
      action: 'log',
      fail: 'open',
      timeoutMs: '',
      allGroups: false,
      groups: ['vip'],
    };
    expect(formValuesToGuardrailFields(values)).toEqual({
      name: 'moderation',
      kind: 'webhook',
      url: 'https://checks.example.com/guard',
      action: 'log',
      fail: 'open',
      timeout_ms: 1000,
      groups: ['vip'],
    });
  });

  it('reads a stored one back unchanged', () => {
    const {
      id: _regexId,
      created_at: _regexCreated,
      url: _url,
      fail: _fail,
      timeout_ms: _timeout,
      managed: _regexManaged,
      ...regexFields
    } = regex;
    expect(formValuesToGuardrailFields(guardrailToFormValues(regex))).toEqual(regexFields);
    const { id: _id, created_at: _created, pattern: _pattern, managed: _managed, ...webhookFields } = webhook;
    expect(formValuesToGuardrailFields(guardrailToFormValues(webhook))).toEqual(webhookFields);
  });

  it('keeps every member of a kind this console does not know', () => {
    const newer = { ...webhook, kind: 'classifier', pattern: 'x' };
    expect(formValuesToGuardrailFields(guardrailToFormValues(newer))).toMatchObject({
      kind: 'classifier',
      pattern: 'x',
      url: 'https://checks.example.com/guard',
      fail: 'open',
      timeout_ms: 2500,
    });
    const initial = guardrailToFormValues(newer);
    expect(guardrailChanges(initial, initial)).toEqual({});
  });

  it('patches only what changed', () => {
    const initial = guardrailToFormValues(webhook);
    expect(guardrailChanges(initial, initial)).toEqual({});
    expect(guardrailChanges(initial, { ...initial, timeoutMs: 500, allGroups: true })).toEqual({
      timeout_ms: 500,
      groups: null,
    });
    expect(guardrailChanges(initial, { ...initial, groups: ['vip'] })).toEqual({ groups: ['vip'] });
    const stored = guardrailToFormValues(regex);
    expect(guardrailChanges(stored, { ...stored, name: 'keys', pattern: 'sk-\\w+' })).toEqual({
      name: 'keys',
      pattern: 'sk-\\w+',
    });
  });

  it('clears the old kind’s member when the kind changes', () => {
    const initial = guardrailToFormValues(webhook);
    expect(guardrailChanges(initial, { ...initial, kind: 'regex', pattern: 'forbidden' })).toEqual({
      kind: 'regex',
      pattern: 'forbidden',
      url: null,
    });
    const stored = guardrailToFormValues(regex);
    expect(guardrailChanges(stored, { ...stored, kind: 'webhook', url: 'https://a.example/' })).toEqual({
      kind: 'webhook',
      pattern: null,
      url: 'https://a.example/',
      fail: 'closed',
      timeout_ms: 1000,
    });
  });
});

describe('guardrailFormPathOfParam', () => {
  it('maps the members a refusal names to the form’s fields', () => {
    expect(guardrailFormPathOfParam('pattern')).toBe('pattern');
    expect(guardrailFormPathOfParam('timeout_ms')).toBe('timeoutMs');
    expect(guardrailFormPathOfParam('groups.1')).toBe('groups');
    expect(guardrailFormPathOfParam('groups[0]')).toBe('groups');
    expect(guardrailFormPathOfParam('unknown_member')).toBeUndefined();
  });
});
