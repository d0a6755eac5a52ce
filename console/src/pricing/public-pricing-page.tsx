import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../public/public-frame';
import { PricingView } from './pricing-view';

/** The price list for anyone, before signing in: the default group's prices. */
export function PublicPricingPage() {
  const { t } = useTranslation();
  return (
    <PublicFrame wide>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Title order={1}>{t('nav.pricing')}</Title>
          <Text size="sm" c="dimmed">
            {t('pricing.publicDescription')}
          </Text>
          <PricingView />
        </Stack>
      </Paper>
    </PublicFrame>
  );
}
