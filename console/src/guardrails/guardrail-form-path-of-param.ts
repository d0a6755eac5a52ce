import type { GuardrailFormValues } from './guardrail-form-values';

/** Wire members of a guardrail and the form fields that edit them. */
const FORM_FIELD_OF_MEMBER: Readonly<Record<string, keyof GuardrailFormValues>> = {
  name: 'name',
  kind: 'kind',
  pattern: 'pattern',
  url: 'url',
  action: 'action',
  fail: 'fail',
  timeout_ms: 'timeoutMs',
  groups: 'groups',
};

/**
 * The form field of the body member a 400 or 409 names in `error.param` (`pattern`, `groups.1`,
 * `groups[1]`), or undefined for one the form has no field for.
 */
export function guardrailFormPathOfParam(param: string): keyof GuardrailFormValues | undefined {
  const [member] = param.replace(/\[(\d+)\]/g, '.$1').split('.');
  return member === undefined ? undefined : FORM_FIELD_OF_MEMBER[member];
}
