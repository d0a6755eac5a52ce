import { FALLBACK_KINDS, type VirtualModel, type VirtualModelFields } from '../api/types';

/** One target as its inputs hold it: numbers may be '' (the default: priority 0, weight 1). */
export interface TargetFormRow {
  model: string;
  priority: number | string;
  weight: number | string;
}

/** What the virtual model form edits (admin-api section 11.2). */
export interface VirtualModelFormValues {
  name: string;
  targets: TargetFormRow[];
  strategy: string;
  fallbackOn: string[];
  sticky: boolean;
}

/** Section 11.2's defaults of a target. */
export const DEFAULT_TARGET_PRIORITY = 0;
export const DEFAULT_TARGET_WEIGHT = 1;

export function emptyTargetRow(): TargetFormRow {
  return { model: '', priority: DEFAULT_TARGET_PRIORITY, weight: DEFAULT_TARGET_WEIGHT };
}

/** A stored virtual model, or a new one with the defaults: one empty target, `priority`, every fallback kind, sticky. */
export function virtualModelToFormValues(virtualModel?: VirtualModel): VirtualModelFormValues {
  if (!virtualModel) {
    return {
      name: '',
      targets: [emptyTargetRow()],
      strategy: 'priority',
      fallbackOn: [...FALLBACK_KINDS],
      sticky: true,
    };
  }
  return {
    name: virtualModel.name,
    targets: virtualModel.targets.map((target) => ({ ...target })),
    strategy: virtualModel.strategy,
    fallbackOn: [...virtualModel.fallback_on],
    sticky: virtualModel.sticky,
  };
}

/**
 * The fallback kinds to offer: section 11.3's, then any other the gateway already stored (a newer
 * version's), so saving never drops one silently.
 */
export function fallbackKindChoices(checked: readonly string[]): string[] {
  const known: readonly string[] = FALLBACK_KINDS;
  return [...known, ...checked.filter((kind) => !known.includes(kind))];
}

/** The `POST` body: names trimmed, empty numbers as the spec's defaults, fallback kinds in the spec's order. */
export function formValuesToVirtualModelFields(values: VirtualModelFormValues): VirtualModelFields {
  return {
    name: values.name.trim(),
    targets: values.targets.map((target) => ({
      model: target.model.trim(),
      priority: target.priority === '' ? DEFAULT_TARGET_PRIORITY : Number(target.priority),
      weight: target.weight === '' ? DEFAULT_TARGET_WEIGHT : Number(target.weight),
    })),
    strategy: values.strategy,
    fallback_on: fallbackKindChoices(values.fallbackOn).filter((kind) => values.fallbackOn.includes(kind)),
    sticky: values.sticky,
  };
}

/** The `PATCH` body of an edit: only the members that changed (the name is the path, never sent). */
export function virtualModelChanges(
  initial: VirtualModelFormValues,
  values: VirtualModelFormValues,
): Partial<Omit<VirtualModelFields, 'name'>> {
  const { name: _before, ...before } = formValuesToVirtualModelFields(initial);
  const { name: _after, ...after } = formValuesToVirtualModelFields(values);
  const changes: Partial<Omit<VirtualModelFields, 'name'>> = {};
  for (const member of Object.keys(after) as (keyof typeof after)[]) {
    if (JSON.stringify(before[member]) !== JSON.stringify(after[member])) {
      Object.assign(changes, { [member]: after[member] });
    }
  }
  return changes;
}
