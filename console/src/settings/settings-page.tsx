import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { fetchSettings } from '../api/settings-api';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { SettingsForm } from './settings-form';
import { WebhookDeliveriesPanel } from './webhook-deliveries-panel';

/** Every live setting with its meaning, then the webhook's recent deliveries; saving sends only the changed ones. */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: fetchSettings });
  return (
    <>
      <PageHeader title={t('nav.settings')} description={t('settings.description')} />
      <Stack gap="md">
        <QueryState query={settings}>{(current) => <SettingsForm settings={current} />}</QueryState>
        <WebhookDeliveriesPanel />
      </Stack>
    </>
  );
}
