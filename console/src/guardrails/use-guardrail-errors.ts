import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { GuardrailFormValues } from './guardrail-form-values';
import { validateGuardrail, type GuardrailProblem } from './validate-guardrail';

/** The guardrail form's errors, in the console's language, at the fields they concern. */
export function useGuardrailErrors(context: {
  takenNames: readonly string[];
}): (values: GuardrailFormValues) => FormErrors {
  const { t } = useTranslation();
  const describe = (problem: GuardrailProblem): string => {
    switch (problem.problem) {
      case 'required':
        return t('common.required');
      case 'taken':
        return t('guardrails.nameTaken');
      case 'invalidPattern':
        return t('guardrails.patternInvalid', { reason: problem.reason });
      case 'invalidUrl':
        return t('guardrails.urlInvalid');
      case 'timeoutRange':
        return t('guardrails.timeoutRange');
      case 'noGroups':
        return t('guardrails.noGroups');
      default: {
        const unknown: never = problem;
        return String(unknown);
      }
    }
  };
  return (values) =>
    Object.fromEntries(
      validateGuardrail(values, context).map((problem) => [problem.field, describe(problem)]),
    );
}
