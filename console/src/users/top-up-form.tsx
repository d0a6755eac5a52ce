import { Button, Group, NumberInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/error-alert';

/** An amount in USD added to the balance atomically by the gateway. */
export function TopUpForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (amount: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<{ amount: number | string }>({
    initialValues: { amount: '' },
    validate: {
      amount: (value) =>
        value === '' || !(Number(value) > 0) ? t('common.mustBeAtLeast', { min: '0.000000001' }) : null,
    },
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(Number(values.amount)))}>
      <Stack gap="sm">
        <NumberInput
          label={t('users.amount')}
          required
          min={0}
          decimalScale={9}
          allowNegative={false}
          thousandSeparator={false}
          data-autofocus
          {...form.getInputProps('amount')}
        />
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {t('users.topUp')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
