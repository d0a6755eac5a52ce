import { Button, Group, NumberInput, Stack } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ModelMetadata, ModelMetadataFields } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { CapabilitiesInput } from './capabilities-input';
import {
  formValuesToModelMetadataFields,
  modelMetadataToFormValues,
  type ModelMetadataFormValues,
} from './model-metadata-form-values';
import { validateModelMetadata, type ModelMetadataProblem } from './validate-model-metadata';

/** Context window, output cap and capabilities of one model (admin-api section 11.1); empty is unknown. */
export function ModelMetadataForm({
  metadata,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  metadata: ModelMetadata | undefined;
  pending: boolean;
  error: unknown;
  onSubmit: (fields: ModelMetadataFields) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const describe = (problem: ModelMetadataProblem): string => {
    switch (problem.problem) {
      case 'wholeAtLeast':
        return t('budgets.wholeAtLeast', { min: problem.min });
      case 'aboveContextWindow':
        return t('modelMetadata.aboveContextWindow');
      default: {
        const unknown: never = problem;
        return String(unknown);
      }
    }
  };
  const form = useForm<ModelMetadataFormValues>({
    initialValues: modelMetadataToFormValues(metadata),
    validate: (values): FormErrors =>
      Object.fromEntries(validateModelMetadata(values).map((problem) => [problem.field, describe(problem)])),
  });
  const tokens = { min: 1, allowDecimal: false, allowNegative: false, thousandSeparator: false } as const;
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(formValuesToModelMetadataFields(values)))}>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <NumberInput
            label={t('modelMetadata.contextWindow')}
            description={t('modelMetadata.unknownWhenEmpty')}
            {...tokens}
            {...form.getInputProps('contextWindow')}
          />
          <NumberInput
            label={t('modelMetadata.maxOutputTokens')}
            description={t('modelMetadata.unknownWhenEmpty')}
            {...tokens}
            {...form.getInputProps('maxOutputTokens')}
          />
        </Group>
        <CapabilitiesInput
          state={form.values.capabilitiesState}
          checked={form.values.capabilities}
          onStateChange={(state) => form.setFieldValue('capabilitiesState', state)}
          onCheckedChange={(checked) => form.setFieldValue('capabilities', checked)}
        />
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
