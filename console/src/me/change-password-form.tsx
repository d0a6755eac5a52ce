import { Button, Group, Paper, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { updateOwnAccount } from '../api/auth-api';
import { ErrorAlert } from '../components/error-alert';
import { notifySuccess } from '../components/notify';

/** `PATCH /api/me {password}`: the gateway ends the user's other sessions, this one goes on. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value === '' ? t('common.required') : null) },
  });
  const change = useMutation({
    mutationFn: (password: string) => updateOwnAccount({ password }),
    onSuccess: () => {
      form.reset();
      notifySuccess(t('myDashboard.passwordChanged'));
    },
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('myDashboard.changePassword')}
      </Title>
      <form noValidate onSubmit={form.onSubmit((values) => change.mutate(values.password))}>
        {Boolean(change.error) && <ErrorAlert error={change.error} />}
        <Group align="flex-end" gap="sm">
          <TextInput
            type="password"
            label={t('myDashboard.newPassword')}
            autoComplete="new-password"
            className="grow"
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={change.isPending}>
            {t('myDashboard.changePassword')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
