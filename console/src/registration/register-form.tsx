import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useErrorOnField } from '../components/use-error-on-field';
import type { RegistrationFields } from './registration-api';
import {
  EMPTY_REGISTRATION,
  MIN_PASSWORD_LENGTH,
  registrationFieldOfParam,
  toRegistrationFields,
  type RegistrationFormValues,
} from './registration-form-values';

/**
 * Username, password twice and, where the gateway asks for one, an invite code. `invite`:
 * `required`, `optional` (the gateway's mode is not known), or `hidden` (open registration).
 */
export function RegisterForm({
  invite,
  pending,
  error,
  onSubmit,
}: {
  invite: 'required' | 'optional' | 'hidden';
  pending: boolean;
  error: unknown;
  onSubmit: (fields: RegistrationFields) => void;
}) {
  const { t } = useTranslation();
  const form = useForm<RegistrationFormValues>({
    initialValues: EMPTY_REGISTRATION,
    validate: {
      username: (value) => (value.trim() === '' ? t('common.required') : null),
      password: (value) =>
        value.length < MIN_PASSWORD_LENGTH
          ? t('register.passwordTooShort', { min: MIN_PASSWORD_LENGTH })
          : null,
      confirmPassword: (value, values) => (value !== values.password ? t('register.passwordsDiffer') : null),
      inviteCode: (value) => (invite === 'required' && value.trim() === '' ? t('common.required') : null),
    },
  });
  useErrorOnField(error, registrationFieldOfParam, form.setFieldError);
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(toRegistrationFields(values)))}>
      <Stack gap="sm">
        <TextInput
          label={t('signIn.username')}
          autoComplete="username"
          required
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t('signIn.password')}
          description={t('register.passwordHint', { min: MIN_PASSWORD_LENGTH })}
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('register.confirmPassword')}
          autoComplete="new-password"
          required
          {...form.getInputProps('confirmPassword')}
        />
        {invite !== 'hidden' && (
          <TextInput
            label={t('register.inviteCode')}
            description={invite === 'optional' ? t('register.inviteCodeIfAsked') : undefined}
            autoComplete="off"
            required={invite === 'required'}
            {...form.getInputProps('inviteCode')}
          />
        )}
        <Button type="submit" loading={pending}>
          {t('register.submit')}
        </Button>
      </Stack>
    </form>
  );
}
