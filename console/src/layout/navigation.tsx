import { NavLink, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Role } from '../api/types';
import { navigationItems } from './navigation-items';

export function Navigation({ role, onNavigate }: { role: Role; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav aria-label={t('nav.label')}>
      <Stack gap={2}>
        {navigationItems(role).map((item) => {
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
