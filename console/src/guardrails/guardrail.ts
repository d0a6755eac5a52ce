import type { Managed } from '../api/types';

/** What a guardrail runs on the request's text (admin-api section 12). */
export const GUARDRAIL_KINDS = ['regex', 'webhook'] as const;
export type GuardrailKind = (typeof GUARDRAIL_KINDS)[number];

/** What a match (or a webhook's `allow: false`) does. */
export const GUARDRAIL_ACTIONS = ['block', 'log'] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

/** What a webhook's error or timeout means. */
export const GUARDRAIL_FAIL_MODES = ['closed', 'open'] as const;
export type GuardrailFailMode = (typeof GUARDRAIL_FAIL_MODES)[number];

/**
 * A check on the text of every request, before the pre-charge (admin-api section 12). `kind`,
 * `action` and `fail` are read as plain strings: a newer gateway's value is shown and kept, not dropped.
 */
export interface Guardrail {
  id: number;
  name: string;
  kind: GuardrailKind | (string & {});
  /** A JavaScript regular expression's source, for `regex`. */
  pattern: string | null;
  /** An http or https address, for `webhook`. */
  url: string | null;
  action: GuardrailAction | (string & {});
  /** Webhooks only. */
  fail: GuardrailFailMode | (string & {});
  /** Webhooks only: 1 to 60000. */
  timeout_ms: number;
  /** Null: every group. */
  groups: string[] | null;
  created_at: number;
  managed: Managed;
}

/** Every member a client sets; a `PATCH` sends any subset of them. */
export type GuardrailFields = Omit<Guardrail, 'id' | 'created_at' | 'managed'>;

/** The body of `POST /api/guardrails`: members that do not apply to the kind are left to the gateway. */
export type NewGuardrailFields = Pick<GuardrailFields, 'name' | 'kind' | 'action' | 'groups'> &
  Partial<GuardrailFields>;

export type GuardrailChanges = Partial<GuardrailFields>;

export function isGuardrailKind(value: string): value is GuardrailKind {
  return (GUARDRAIL_KINDS as readonly string[]).includes(value);
}

export function isGuardrailAction(value: string): value is GuardrailAction {
  return (GUARDRAIL_ACTIONS as readonly string[]).includes(value);
}

export function isGuardrailFailMode(value: string): value is GuardrailFailMode {
  return (GUARDRAIL_FAIL_MODES as readonly string[]).includes(value);
}
