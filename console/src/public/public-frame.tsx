import { Anchor, Box, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../layout/language-switch';

/**
 * The frame of the pages anyone may open without signing in (sign-in, registration, pricing): the
 * console's name, leading back to sign-in, and the language switch; `wide` for a page with a table.
 */
export function PublicFrame({ wide = false, children }: { wide?: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box className="sign-in-page">
      <Stack gap="md" className={wide ? 'public-column-wide' : 'sign-in-column'}>
        <Group justify="space-between" wrap="wrap">
          <Anchor component={Link} to="/" fw={700} size="lg" c="inherit" underline="never">
            {t('app.title')}
          </Anchor>
          <LanguageSwitch user={null} />
        </Group>
        {children}
      </Stack>
    </Box>
  );
}
