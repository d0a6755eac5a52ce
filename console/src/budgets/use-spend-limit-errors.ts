import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { SpendLimitFormValues } from './spend-limit-form-values';
import { validateBudgetRows, type BudgetProblem } from './validate-budget-rows';

/**
 * The form errors of spend limits, at the paths the inputs read them from: `maxConcurrency`,
 * `budgets.<index>.<field>` (`limits` for a budget without any).
 */
export function useSpendLimitErrors(): (values: SpendLimitFormValues) => FormErrors {
  const { t } = useTranslation();
  const describe = (problem: BudgetProblem): string => {
    switch (problem.problem) {
      case 'range':
        return t('budgets.hoursRange', { min: problem.min, max: problem.max });
      case 'atLeast':
        return t('common.mustBeAtLeast', { min: problem.min });
      case 'wholeAtLeast':
        return t('budgets.wholeAtLeast', { min: problem.min });
      case 'percent':
        return t('budgets.alertPercent');
      case 'tooMany':
        return t('budgets.alertTooMany', { max: problem.max });
      case 'noLimit':
        return t('budgets.noLimit');
      default: {
        const unknown: never = problem;
        return String(unknown);
      }
    }
  };
  return (values) => {
    const errors: FormErrors = Object.fromEntries(
      validateBudgetRows(values.budgets).map((problem) => [
        `budgets.${problem.index}.${problem.field}`,
        describe(problem),
      ]),
    );
    const cap = Number(values.maxConcurrency);
    if (values.maxConcurrency !== '' && !(Number.isInteger(cap) && cap >= 1)) {
      errors['maxConcurrency'] = t('budgets.wholeAtLeast', { min: 1 });
    }
    return errors;
  };
}
