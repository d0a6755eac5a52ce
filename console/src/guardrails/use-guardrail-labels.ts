import { useTranslation } from 'react-i18next';
import { isGuardrailAction, isGuardrailFailMode, isGuardrailKind } from './guardrail';

/**
 * The names of a guardrail's kind, action and failure mode in the console's language; a value this
 * console does not know, as the gateway spells it.
 */
export function useGuardrailLabels(): {
  kind: (kind: string) => string;
  action: (action: string) => string;
  fail: (fail: string) => string;
} {
  const { t } = useTranslation();
  return {
    kind: (kind) => (isGuardrailKind(kind) ? t(`guardrails.kindNames.${kind}`) : kind),
    action: (action) => (isGuardrailAction(action) ? t(`guardrails.actionNames.${action}`) : action),
    fail: (fail) => (isGuardrailFailMode(fail) ? t(`guardrails.failNames.${fail}`) : fail),
  };
}
