import { describe, expect, it } from 'vitest';
import { problemPath, validateVirtualModel } from './validate-virtual-model';
import { virtualModelToFormValues, type VirtualModelFormValues } from './virtual-model-form-values';

const context = { servedModels: ['gpt-4o', 'o3'], takenNames: ['smart'] };

function values(changes: Partial<VirtualModelFormValues>): VirtualModelFormValues {
  return {
    ...virtualModelToFormValues(),
    name: 'fast',
    targets: [{ model: 'gpt-4o', priority: 0, weight: 1 }],
    ...changes,
  };
}

describe('validateVirtualModel', () => {
  it('accepts a named virtual model with a served target', () => {
    expect(validateVirtualModel(values({}), context)).toEqual([]);
    expect(
      validateVirtualModel(values({ targets: [{ model: 'o3', priority: '', weight: '' }] }), context),
    ).toEqual([]);
  });

  it('refuses a missing name, one a channel serves, and one another virtual model has', () => {
    expect(validateVirtualModel(values({ name: ' ' }), context)).toEqual([
      { field: 'name', problem: 'required' },
    ]);
    expect(validateVirtualModel(values({ name: 'o3 ' }), context)).toEqual([
      { field: 'name', problem: 'servedByChannel' },
    ]);
    expect(validateVirtualModel(values({ name: 'smart' }), context)).toEqual([
      { field: 'name', problem: 'taken' },
    ]);
  });

  it('refuses no targets, an empty, repeated or self-naming target, and bad numbers', () => {
    expect(validateVirtualModel(values({ targets: [] }), context)).toEqual([
      { field: 'targets', problem: 'noTargets' },
    ]);
    const problems = validateVirtualModel(
      values({
        targets: [
          { model: '', priority: 0, weight: 1 },
          { model: 'gpt-4o', priority: 0.5, weight: 0 },
          { model: 'gpt-4o', priority: 0, weight: 2.5 },
          { model: 'fast', priority: 0, weight: 1 },
        ],
      }),
      context,
    );
    expect(problems.map(problemPath)).toEqual([
      'targets.0.model',
      'targets.1.priority',
      'targets.1.weight',
      'targets.2.model',
      'targets.2.weight',
      'targets.3.model',
    ]);
    expect(problems.map((problem) => problem.problem)).toEqual([
      'required',
      'whole',
      'wholeAtLeast',
      'duplicate',
      'wholeAtLeast',
      'itself',
    ]);
  });
});
