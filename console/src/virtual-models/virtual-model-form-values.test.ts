import { describe, expect, it } from 'vitest';
import type { VirtualModel } from '../api/types';
import { formPathOfParam } from './form-path-of-param';
import {
  formValuesToVirtualModelFields,
  virtualModelChanges,
  virtualModelToFormValues,
} from './virtual-model-form-values';

const stored: VirtualModel = {
  name: 'team/fast',
  targets: [
    { model: 'gpt-4o-mini', priority: 1, weight: 3 },
    { model: 'claude-haiku', priority: 0, weight: 1 },
  ],
  strategy: 'latency',
  fallback_on: ['timeout', 'rate_limit'],
  sticky: false,
  managed: 'api',
};

describe('virtual model form values', () => {
  it('starts a new one with the spec’s defaults', () => {
    const values = virtualModelToFormValues();
    expect(values).toEqual({
      name: '',
      targets: [{ model: '', priority: 0, weight: 1 }],
      strategy: 'priority',
      fallbackOn: ['rate_limit', 'server_error', 'timeout', 'context_length', 'content_filter'],
      sticky: true,
    });
  });

  it('creates with every member, empty numbers as the target defaults', () => {
    const values = {
      ...virtualModelToFormValues(),
      name: ' fast ',
      targets: [
        { model: ' gpt-4o ', priority: '', weight: '' },
        { model: 'o3', priority: -1, weight: 5 },
      ],
    };
    expect(formValuesToVirtualModelFields(values)).toEqual({
      name: 'fast',
      targets: [
        { model: 'gpt-4o', priority: 0, weight: 1 },
        { model: 'o3', priority: -1, weight: 5 },
      ],
      strategy: 'priority',
      fallback_on: ['rate_limit', 'server_error', 'timeout', 'context_length', 'content_filter'],
      sticky: true,
    });
  });

  it('reads a stored one back unchanged, fallback kinds in the spec’s order', () => {
    const { managed: _managed, ...fields } = stored;
    expect(formValuesToVirtualModelFields(virtualModelToFormValues(stored))).toEqual({
      ...fields,
      fallback_on: ['rate_limit', 'timeout'],
    });
  });

  it('keeps a fallback kind and a strategy this console does not know', () => {
    const newer = { ...stored, strategy: 'cost', fallback_on: ['overloaded', 'timeout'] };
    expect(formValuesToVirtualModelFields(virtualModelToFormValues(newer))).toMatchObject({
      strategy: 'cost',
      fallback_on: ['timeout', 'overloaded'],
    });
  });

  it('patches only what changed, never the name', () => {
    const initial = virtualModelToFormValues(stored);
    expect(virtualModelChanges(initial, initial)).toEqual({});
    expect(
      virtualModelChanges(initial, {
        ...initial,
        name: 'renamed',
        sticky: true,
        fallbackOn: [],
        targets: [{ model: 'gpt-4o-mini', priority: 1, weight: 4 }],
      }),
    ).toEqual({
      targets: [{ model: 'gpt-4o-mini', priority: 1, weight: 4 }],
      fallback_on: [],
      sticky: true,
    });
  });
});

describe('formPathOfParam', () => {
  it('maps the members a 400 names to the form’s fields', () => {
    expect(formPathOfParam('name')).toBe('name');
    expect(formPathOfParam('targets')).toBe('targets');
    expect(formPathOfParam('targets.1.weight')).toBe('targets.1.weight');
    expect(formPathOfParam('targets[0].model')).toBe('targets.0.model');
    expect(formPathOfParam('targets.2')).toBe('targets.2.model');
    expect(formPathOfParam('fallback_on.3')).toBe('fallbackOn');
    expect(formPathOfParam('unknown_member')).toBeUndefined();
  });
});
