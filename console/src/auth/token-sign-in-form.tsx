import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';

export interface TokenSignInFormProps {
  pending: boolean;
  onSubmit: (credentials: { token: string }) => void;
}

export function TokenSignInForm({ pending, onSubmit }: TokenSignInFormProps) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { token: '' },
    validate: { token: (value) => (value.trim() === '' ? t('signIn.required') : null) },
  });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit({ token: values.token.trim() }))}>
      <Stack gap="sm">
        <TextInput
          type="password"
          label={t('signIn.token')}
          description={t('signIn.tokenHint')}
          autoComplete="off"
          required
          {...form.getInputProps('token')}
        />
        <Button type="submit" loading={pending}>
          {t('signIn.submit')}
        </Button>
      </Stack>
    </form>
  );
}
