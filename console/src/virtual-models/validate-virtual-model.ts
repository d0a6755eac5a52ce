import type { VirtualModelFormValues } from './virtual-model-form-values';

export type VirtualModelProblem =
  | { field: 'name'; problem: 'required' }
  | { field: 'name'; problem: 'servedByChannel' }
  | { field: 'name'; problem: 'taken' }
  | { field: 'targets'; problem: 'noTargets' }
  | { field: 'targets.model'; index: number; problem: 'required' }
  | { field: 'targets.model'; index: number; problem: 'duplicate' }
  | { field: 'targets.model'; index: number; problem: 'itself' }
  | { field: 'targets.priority'; index: number; problem: 'whole' }
  | { field: 'targets.weight'; index: number; problem: 'wholeAtLeast'; min: number };

/** The form path a problem is shown at: `name`, `targets`, `targets.<index>.<member>`. */
export function problemPath(problem: VirtualModelProblem): string {
  if ('index' in problem) return problem.field.replace('.', `.${problem.index}.`);
  return problem.field;
}

/**
 * What the gateway would refuse in a virtual model (admin-api section 11.2), found before sending: no
 * name, a name a channel serves or another virtual model has, no target, a target without a model or
 * naming the virtual model itself, and a priority or weight that is not a whole number (weight at
 * least 1). A model listed twice is refused too: the second entry could never be chosen apart.
 */
export function validateVirtualModel(
  values: VirtualModelFormValues,
  context: {
    /** Public model IDs the channels serve; empty when editing (the name cannot change). */
    servedModels: readonly string[];
    /** Other virtual models' names; empty when editing. */
    takenNames: readonly string[];
  },
): VirtualModelProblem[] {
  const problems: VirtualModelProblem[] = [];
  const name = values.name.trim();
  if (name === '') problems.push({ field: 'name', problem: 'required' });
  else if (context.servedModels.includes(name)) problems.push({ field: 'name', problem: 'servedByChannel' });
  else if (context.takenNames.includes(name)) problems.push({ field: 'name', problem: 'taken' });
  if (values.targets.length === 0) problems.push({ field: 'targets', problem: 'noTargets' });
  const seen = new Set<string>();
  values.targets.forEach((target, index) => {
    const model = target.model.trim();
    if (model === '') problems.push({ field: 'targets.model', index, problem: 'required' });
    else if (model === name) problems.push({ field: 'targets.model', index, problem: 'itself' });
    else if (seen.has(model)) problems.push({ field: 'targets.model', index, problem: 'duplicate' });
    seen.add(model);
    if (target.priority !== '' && !Number.isInteger(Number(target.priority))) {
      problems.push({ field: 'targets.priority', index, problem: 'whole' });
    }
    const weight = Number(target.weight);
    if (target.weight !== '' && !(Number.isInteger(weight) && weight >= 1)) {
      problems.push({ field: 'targets.weight', index, problem: 'wholeAtLeast', min: 1 });
    }
  });
  return problems;
}
