import { Alert, Anchor, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../api/api-error';
import { PublicFrame } from '../public/public-frame';
import { usePublicOptions } from '../public/use-public-options';
import { RegisterForm } from './register-form';
import { useRegister } from './use-register';

/** Sign-up (admin-api section 15): open to anyone, or with an invite code; closed says so. */
export function RegisterPage() {
  const { t } = useTranslation();
  const options = usePublicOptions();
  const registration = useRegister();
  const mode = options.data?.registration;
  // Refused for a field: the form shows it there; any other refusal above the form.
  const fieldError = registration.error instanceof ApiError && registration.error.param !== undefined;
  const closed =
    mode === 'closed' ||
    (registration.error instanceof ApiError && registration.error.code === 'registration_closed');
  return (
    <PublicFrame>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Title order={1}>{t('register.title')}</Title>
          {options.isPending ? (
            <Center p="md">
              <Loader size="sm" aria-label={t('app.loading')} />
            </Center>
          ) : closed ? (
            <Alert color="yellow" role="status">
              {t('register.closed')}
            </Alert>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                {mode === 'invite' ? t('register.introInvite') : t('register.intro')}
              </Text>
              {Boolean(registration.error) && !fieldError && (
                <Alert color="red" title={t('common.error')} role="alert">
                  {errorMessage(registration.error)}
                </Alert>
              )}
              <RegisterForm
                invite={mode === 'invite' ? 'required' : mode === 'open' ? 'hidden' : 'optional'}
                pending={registration.isPending}
                error={registration.error}
                onSubmit={(fields) => registration.mutate(fields)}
              />
            </>
          )}
        </Stack>
      </Paper>
      <Text size="sm">
        {t('register.haveAccount')}{' '}
        <Anchor component={Link} to="/">
          {t('signIn.submit')}
        </Anchor>
      </Text>
    </PublicFrame>
  );
}
