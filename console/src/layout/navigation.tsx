import { NavLink, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { SignedInUser } from '../api/types';
import { isRootAdmin } from '../auth/is-root-admin';
import { usePublicOptions } from '../public/use-public-options';
import { navigationItems } from './navigation-items';

export function Navigation({ user, onNavigate }: { user: SignedInUser; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const options = usePublicOptions().data;
  const items = navigationItems({
    role: user.role,
    hasAccount: !isRootAdmin(user),
    topUpOffered: options?.topup !== false,
  });
  return (
    <nav aria-label={t('nav.label')}>
      <Stack gap={2}>
        {items.map((item) => {
          const active = item.path === '/' ? pathname === '/' : pathname.startsWith(item.path);
          return (
            <NavLink
              key={item.key}
              component={Link}
              to={item.path}
              label={t(`nav.${item.key}`)}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
            />
          );
        })}
      </Stack>
    </nav>
  );
}
