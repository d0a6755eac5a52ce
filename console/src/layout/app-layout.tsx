import { AppShell, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignedInUser } from '../api/types';
import { isRootAdmin } from '../auth/is-root-admin';
import { useSignOut } from '../auth/use-sign-out';
import { LanguageSwitch } from './language-switch';
import { Navigation } from './navigation';

/** Header (menu on phones, language, sign-out), navigation, and the page. */
export function AppLayout({ user, children }: { user: SignedInUser; children: ReactNode }) {
  const { t } = useTranslation();
  const [menuOpen, menu] = useDisclosure(false);
  const signOut = useSignOut();
  const name = isRootAdmin(user) ? t('header.rootAdmin') : user.username;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap">
            <Button
              variant="default"
              size="xs"
              hiddenFrom="sm"
              onClick={menu.toggle}
              aria-expanded={menuOpen}
              aria-controls="console-navigation"
            >
              {t('nav.menu')}
            </Button>
            <Text fw={700} visibleFrom="sm">
              {t('app.title')}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch user={user} />
            <Text size="sm" c="dimmed" visibleFrom="md" title={t('header.signedInAs', { name })}>
              {name}
            </Text>
            <Button variant="light" size="xs" loading={signOut.isPending} onClick={() => signOut.mutate()}>
              {t('header.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        p="xs"
        id="console-navigation"
        className={menuOpen ? undefined : 'navigation-closed-on-phones'}
      >
        <Navigation user={user} onNavigate={menu.close} />
      </AppShell.Navbar>
      <AppShell.Main className="console-main">{children}</AppShell.Main>
    </AppShell>
  );
}
