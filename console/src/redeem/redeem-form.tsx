import { Button, Group, Paper, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { ErrorAlert } from '../components/error-alert';
import { notifySuccess } from '../components/notify';
import { formatUsd } from '../format/format-usd';
import { redeemCode } from './redeem-api';

/** One code in, its amount onto the balance; the balance and its history reload. */
export function RedeemForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (value.trim() === '' ? t('common.required') : null) },
  });
  const redeem = useMutation({
    mutationFn: (code: string) => redeemCode(code),
    onSuccess: (user) => {
      form.reset();
      queryClient.setQueryData(queryKeys.ownAccount, user);
      void queryClient.invalidateQueries({ queryKey: queryKeys.ownCredits });
      notifySuccess(t('redeem.done', { balance: formatUsd(user.balance ?? 0) }));
    },
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('redeem.formTitle')}
      </Title>
      <form noValidate onSubmit={form.onSubmit((values) => redeem.mutate(values.code.trim()))}>
        {Boolean(redeem.error) && <ErrorAlert error={redeem.error} />}
        <Group align="flex-end" gap="sm" mt={redeem.error ? 'sm' : 0}>
          <TextInput
            label={t('redeem.code')}
            autoComplete="off"
            required
            className="grow"
            {...form.getInputProps('code')}
          />
          <Button type="submit" loading={redeem.isPending}>
            {t('redeem.submit')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
