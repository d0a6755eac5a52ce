import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';

export interface PasswordSignInFormProps {
  pending: boolean;
  onSubmit: (credentials: { username: string; password: string }) => void;
}

export function PasswordSignInForm({ pending, onSubmit }: PasswordSignInFormProps) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (value) => (value.trim() === '' ? t('signIn.required') : null),
      password: (value) => (value === '' ? t('signIn.required') : null),
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit({ ...values, username: values.username.trim() }))}>
      <Stack gap="sm">
        <TextInput
          label={t('signIn.username')}
          autoComplete="username"
          required
          {...form.getInputProps('username')}
        />
        <TextInput
          type="password"
          label={t('signIn.password')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={pending}>
          {t('signIn.submit')}
        </Button>
      </Stack>
    </form>
  );
}
