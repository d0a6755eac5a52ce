import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { VirtualModelFormValues } from './virtual-model-form-values';
import { problemPath, validateVirtualModel, type VirtualModelProblem } from './validate-virtual-model';

/** The virtual model form's errors, in the console's language, at the paths its inputs read them from. */
export function useVirtualModelErrors(context: {
  servedModels: readonly string[];
  takenNames: readonly string[];
}): (values: VirtualModelFormValues) => FormErrors {
  const { t } = useTranslation();
  const describe = (problem: VirtualModelProblem): string => {
    switch (problem.problem) {
      case 'required':
        return t('common.required');
      case 'servedByChannel':
        return t('virtualModels.nameServed');
      case 'taken':
        return t('virtualModels.nameTaken');
      case 'noTargets':
        return t('virtualModels.noTargets');
      case 'duplicate':
        return t('virtualModels.targetDuplicate');
      case 'itself':
        return t('virtualModels.targetItself');
      case 'whole':
        return t('virtualModels.wholeNumber');
      case 'wholeAtLeast':
        return t('budgets.wholeAtLeast', { min: problem.min });
      default: {
        const unknown: never = problem;
        return String(unknown);
      }
    }
  };
  return (values) =>
    Object.fromEntries(
      validateVirtualModel(values, context).map((problem) => [problemPath(problem), describe(problem)]),
    );
}
