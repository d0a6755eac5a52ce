import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { Price, PriceFields } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { formValuesToPriceFields, priceToFormValues, type PriceFormValues } from './price-form-values';

/**
 * USD per 1M tokens; the optional ones empty mean "same as input" (cache, audio tokens: the text
 * price) or "none" (per request, per minute, per 1M characters).
 */
export function PriceForm({
  model,
  price,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  /** Absent: the admin names the model. */
  model?: string;
  price: Price | undefined;
  pending: boolean;
  error: unknown;
  onSubmit: (model: string, fields: PriceFields) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<PriceFormValues>({
    initialValues: priceToFormValues({ model, price }),
    validate: {
      model: (value) => (value.trim() === '' ? t('common.required') : null),
      input: (value) => (value === '' ? t('common.required') : null),
      output: (value) => (value === '' ? t('common.required') : null),
    },
  });
  const money = { min: 0, decimalScale: 9, allowNegative: false, thousandSeparator: false } as const;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => onSubmit(values.model.trim(), formValuesToPriceFields(values)))}
    >
      <Stack gap="sm">
        {model === undefined && (
          <TextInput label={t('models.modelId')} required {...form.getInputProps('model')} />
        )}
        <Group grow align="flex-start">
          <NumberInput label={t('models.input')} required {...money} {...form.getInputProps('input')} />
          <NumberInput label={t('models.output')} required {...money} {...form.getInputProps('output')} />
        </Group>
        <Group grow align="flex-start">
          <NumberInput
            label={t('models.cachedInput')}
            description={t('models.sameAsInput')}
            {...money}
            {...form.getInputProps('cachedInput')}
          />
          <NumberInput
            label={t('models.cacheWrite')}
            description={t('models.sameAsInput')}
            {...money}
            {...form.getInputProps('cacheWrite')}
          />
        </Group>
        <NumberInput
          label={t('models.perRequest')}
          description={t('models.perRequestHint')}
          {...money}
          {...form.getInputProps('perRequest')}
        />
        <Group grow align="flex-start">
          <NumberInput
            label={t('models.inputAudio')}
            description={t('models.sameAsTextInput')}
            {...money}
            {...form.getInputProps('inputAudio')}
          />
          <NumberInput
            label={t('models.outputAudio')}
            description={t('models.sameAsTextOutput')}
            {...money}
            {...form.getInputProps('outputAudio')}
          />
        </Group>
        <Group grow align="flex-start">
          <NumberInput
            label={t('models.perMinute')}
            description={t('models.perMinuteHint')}
            {...money}
            {...form.getInputProps('perMinute')}
          />
          <NumberInput
            label={t('models.perMillionCharacters')}
            description={t('models.perMillionCharactersHint')}
            {...money}
            {...form.getInputProps('perMillionCharacters')}
          />
        </Group>
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
