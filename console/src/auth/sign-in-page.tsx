import { Alert, Anchor, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../api/api-error';
import { PublicFrame } from '../public/public-frame';
import { usePublicOptions } from '../public/use-public-options';
import { PasswordSignInForm } from './password-sign-in-form';
import { TokenSignInForm } from './token-sign-in-form';
import { useSignIn } from './use-sign-in';

/** Shown for every path while nobody is signed in; the page stays where it was after sign-in. */
export function SignInPage() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const options = usePublicOptions().data;
  // Unknown (an older gateway, or the options not loaded): offered, and the gateway's answer explains.
  const registrationOpen = options?.registration !== 'closed';
  const pricingPublic = options?.pricing_public !== false;
  return (
    <PublicFrame>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Title order={1}>{t('signIn.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('signIn.intro')}
          </Text>
          {signIn.error && (
            <Alert color="red" title={t('common.error')} role="alert">
              {errorMessage(signIn.error)}
            </Alert>
          )}
          <Tabs defaultValue="password" onChange={() => signIn.reset()}>
            <Tabs.List grow>
              <Tabs.Tab value="password">{t('signIn.passwordTab')}</Tabs.Tab>
              <Tabs.Tab value="token">{t('signIn.tokenTab')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="password" pt="md">
              <PasswordSignInForm pending={signIn.isPending} onSubmit={(values) => signIn.mutate(values)} />
            </Tabs.Panel>
            <Tabs.Panel value="token" pt="md">
              <TokenSignInForm pending={signIn.isPending} onSubmit={(values) => signIn.mutate(values)} />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Paper>
      {(registrationOpen || pricingPublic) && (
        <Group justify="space-between" gap="sm">
          {registrationOpen && (
            <Anchor component={Link} to="/register" size="sm">
              {t('signIn.register')}
            </Anchor>
          )}
          {pricingPublic && (
            <Anchor component={Link} to="/pricing" size="sm">
              {t('signIn.pricing')}
            </Anchor>
          )}
        </Group>
      )}
    </PublicFrame>
  );
}
