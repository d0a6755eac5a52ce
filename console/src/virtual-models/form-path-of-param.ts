/** Wire members of a virtual model and the form fields that edit them. */
const FORM_FIELD_OF_MEMBER: Readonly<Record<string, string>> = {
  name: 'name',
  targets: 'targets',
  strategy: 'strategy',
  fallback_on: 'fallbackOn',
  sticky: 'sticky',
};

const TARGET_MEMBERS: readonly string[] = ['model', 'priority', 'weight'];

/**
 * The form path of the body member a 400 names in `error.param` (`targets.1.weight`,
 * `targets[1].weight`, `fallback_on.0`), or undefined for one the form has no field for.
 */
export function formPathOfParam(param: string): string | undefined {
  const parts = param.replace(/\[(\d+)\]/g, '.$1').split('.');
  const [member, index, targetMember] = parts;
  if (member === undefined) return undefined;
  const field = FORM_FIELD_OF_MEMBER[member];
  if (field === undefined) return undefined;
  if (field === 'targets' && index !== undefined && /^\d+$/.test(index)) {
    return targetMember !== undefined && TARGET_MEMBERS.includes(targetMember)
      ? `targets.${index}.${targetMember}`
      : `targets.${index}.model`;
  }
  return field;
}
