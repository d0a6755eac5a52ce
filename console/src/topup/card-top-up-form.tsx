import { Button, Group, NumberInput, Paper, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/error-alert';
import { formatPrice } from '../format/format-price';
import { goToCheckout } from './go-to-checkout';
import { startTopUp } from './orders-api';

/** Whole cents: Stripe charges in cents, and the gateway makes one line item of that many. */
const CENT_DIGITS = 2;

/**
 * An amount in USD, at least the gateway's `topup_min_usd`; the gateway makes the order and its
 * Stripe Checkout Session, and the browser goes to Stripe to pay.
 */
export function CardTopUpForm({ minimum }: { minimum: number }) {
  const { t } = useTranslation();
  const form = useForm<{ amount: number | string }>({
    initialValues: { amount: '' },
    validate: {
      amount: (value) =>
        value === '' || !(Number(value) >= minimum)
          ? t('topUp.atLeast', { minimum: formatPrice(minimum) })
          : null,
    },
  });
  const start = useMutation({
    mutationFn: (amount: number) => startTopUp(amount),
    onSuccess: (started) => goToCheckout(started.url),
  });
  // Once the payment page is asked for, the button stays busy until the browser has left.
  const leaving = start.isPending || start.isSuccess;
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        {t('topUp.formTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('topUp.formHint')}
      </Text>
      <form noValidate onSubmit={form.onSubmit((values) => start.mutate(Number(values.amount)))}>
        {Boolean(start.error) && <ErrorAlert error={start.error} />}
        <Group align="flex-end" gap="sm" mt={start.error ? 'sm' : 0}>
          <NumberInput
            label={t('topUp.amount')}
            description={t('topUp.minimum', { minimum: formatPrice(minimum) })}
            required
            min={minimum}
            decimalScale={CENT_DIGITS}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator={false}
            className="grow"
            {...form.getInputProps('amount')}
          />
          <Button type="submit" loading={leaving}>
            {t('topUp.submit')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
