import { Alert, Box, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/api-error';
import { LanguageSwitch } from '../layout/language-switch';
import { PasswordSignInForm } from './password-sign-in-form';
import { TokenSignInForm } from './token-sign-in-form';
import { useSignIn } from './use-sign-in';

/** Shown for every path while nobody is signed in; the page stays where it was after sign-in. */
export function SignInPage() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  return (
    <Box className="sign-in-page">
      <Stack gap="md" className="sign-in-column">
        <Group justify="space-between" wrap="wrap">
          <Text fw={700} size="lg">
            {t('app.title')}
          </Text>
          <LanguageSwitch user={null} />
        </Group>
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
      </Stack>
    </Box>
  );
}
