import type { Guardrail, GuardrailChanges, GuardrailFields, NewGuardrailFields } from './guardrail';

/** What the guardrail form edits (admin-api section 12); the timeout may be '' (the default). */
export interface GuardrailFormValues {
  name: string;
  kind: string;
  pattern: string;
  url: string;
  action: string;
  fail: string;
  timeoutMs: number | string;
  /** On: `groups: null`, every group. */
  allGroups: boolean;
  groups: string[];
}

/** Section 12's webhook timeout: the default and the range the gateway accepts. */
export const DEFAULT_TIMEOUT_MS = 1000;
export const MIN_TIMEOUT_MS = 1;
export const MAX_TIMEOUT_MS = 60000;

/** A stored guardrail, or a new one: a blocking regex for every group, webhooks failing closed. */
export function guardrailToFormValues(guardrail?: Guardrail): GuardrailFormValues {
  if (!guardrail) {
    return {
      name: '',
      kind: 'regex',
      pattern: '',
      url: '',
      action: 'block',
      fail: 'closed',
      timeoutMs: DEFAULT_TIMEOUT_MS,
      allGroups: true,
      groups: [],
    };
  }
  return {
    name: guardrail.name,
    kind: guardrail.kind,
    pattern: guardrail.pattern ?? '',
    url: guardrail.url ?? '',
    action: guardrail.action,
    fail: guardrail.fail,
    timeoutMs: guardrail.timeout_ms,
    allGroups: guardrail.groups === null,
    groups: [...(guardrail.groups ?? [])],
  };
}

/**
 * The `POST` body. A regex sends its pattern as typed (spaces match too); a webhook its URL, what a
 * failure means and its timeout ('' as the default). Members of the other kind are left out. A kind
 * this console does not know keeps every member it was stored with.
 */
export function formValuesToGuardrailFields(values: GuardrailFormValues): NewGuardrailFields {
  const common = {
    name: values.name.trim(),
    kind: values.kind,
    action: values.action,
    groups: values.allGroups ? null : [...values.groups],
  };
  const timeout_ms = values.timeoutMs === '' ? DEFAULT_TIMEOUT_MS : Number(values.timeoutMs);
  switch (values.kind) {
    case 'regex':
      return { ...common, pattern: values.pattern };
    case 'webhook':
      return { ...common, url: values.url.trim(), fail: values.fail, timeout_ms };
    default:
      return {
        ...common,
        pattern: values.pattern === '' ? null : values.pattern,
        url: values.url.trim() === '' ? null : values.url.trim(),
        fail: values.fail,
        timeout_ms,
      };
  }
}

const MEMBERS: readonly (keyof GuardrailFields)[] = [
  'name',
  'kind',
  'pattern',
  'url',
  'action',
  'fail',
  'timeout_ms',
  'groups',
];

/**
 * The `PATCH` body of an edit: only the members that changed. Turning a webhook into a regex (or
 * back) clears the member of the old kind (`url: null`, `pattern: null`), so no stale address or
 * pattern is left stored; a regex's hidden `fail` and `timeout_ms` stay as they are.
 */
export function guardrailChanges(
  initial: GuardrailFormValues,
  values: GuardrailFormValues,
): GuardrailChanges {
  const before: Partial<GuardrailFields> = formValuesToGuardrailFields(initial);
  const after: Partial<GuardrailFields> = formValuesToGuardrailFields(values);
  const changes: GuardrailChanges = {};
  for (const member of MEMBERS) {
    const was = before[member];
    const now = after[member];
    if (now === undefined) {
      const clears = (member === 'pattern' || member === 'url') && was !== undefined && was !== null;
      if (clears) changes[member] = null;
      continue;
    }
    if (JSON.stringify(was) !== JSON.stringify(now)) Object.assign(changes, { [member]: now });
  }
  return changes;
}
