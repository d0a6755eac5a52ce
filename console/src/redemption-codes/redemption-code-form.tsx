import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { MAX_CODES_PER_BATCH } from '../api/code-batch-limit';
import { ErrorAlert } from '../components/error-alert';
import { useErrorOnField } from '../components/use-error-on-field';
import type { NewRedemptionCodes } from './redemption-code';
import {
  EMPTY_REDEMPTION_CODE_FORM,
  redemptionCodeFieldOfParam,
  toNewRedemptionCodes,
  validateRedemptionCodeForm,
  type RedemptionCodeFormError,
  type RedemptionCodeFormValues,
} from './redemption-code-form-values';

/** A batch of codes: the amount each credits, how many, when they expire, a name to find them by. */
export function RedemptionCodeForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (fields: NewRedemptionCodes) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const messages: Record<RedemptionCodeFormError, string> = {
    required: t('common.required'),
    amountPositive: t('redemptionCodes.amountPositive'),
    countRange: t('codes.countRange', { max: MAX_CODES_PER_BATCH }),
    expiryPast: t('redemptionCodes.expiryPast'),
  };
  const form = useForm<RedemptionCodeFormValues>({
    initialValues: EMPTY_REDEMPTION_CODE_FORM,
    validate: (values) => {
      const errors = validateRedemptionCodeForm(values, Date.now() / 1000);
      return Object.fromEntries(Object.entries(errors).map(([field, kind]) => [field, messages[kind]]));
    },
  });
  useErrorOnField(error, redemptionCodeFieldOfParam, form.setFieldError);
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(toNewRedemptionCodes(values)))}>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <NumberInput
            label={t('redemptionCodes.amount')}
            required
            min={0}
            decimalScale={9}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator={false}
            data-autofocus
            {...form.getInputProps('amount')}
          />
          <NumberInput
            label={t('redemptionCodes.count')}
            description={t('codes.countHint', { max: MAX_CODES_PER_BATCH })}
            required
            min={1}
            max={MAX_CODES_PER_BATCH}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator={false}
            {...form.getInputProps('count')}
          />
        </Group>
        <TextInput
          type="datetime-local"
          label={t('redemptionCodes.expiresAt')}
          description={t('redemptionCodes.expiresHint')}
          {...form.getInputProps('expiresAt')}
        />
        <TextInput
          label={t('redemptionCodes.name')}
          description={t('redemptionCodes.nameHint')}
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {t('redemptionCodes.createSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
