import type { GuardrailRecord } from '../store/guardrails-repository.js';

/** A guardrail as `/api/guardrails` shows it (admin-api section 12). */
export function serializeGuardrail(guardrail: GuardrailRecord) {
  return {
    id: guardrail.id,
    name: guardrail.name,
    kind: guardrail.kind,
    pattern: guardrail.pattern,
    url: guardrail.url,
    action: guardrail.action,
    fail: guardrail.fail,
    timeout_ms: guardrail.timeoutMs,
    groups: guardrail.groups,
    created_at: guardrail.createdAt,
  };
}
