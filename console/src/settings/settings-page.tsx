import { Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { fetchSettings } from '../api/settings-api';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { useConfigFile } from '../config-file/use-config-file';
import { SettingsForm } from './settings-form';
import { WebhookDeliveriesPanel } from './webhook-deliveries-panel';

/**
 * Every live setting with its meaning, then the webhook's recent deliveries; saving sends only the
 * changed ones, never those the configuration file sets.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: fetchSettings });
  const configFile = useConfigFile();
  return (
    <>
      <PageHeader title={t('nav.settings')} description={t('settings.description')} />
      <Stack gap="md">
        <QueryState query={settings}>
          {(current) =>
            // Once the file is known, so no field turns read-only under the cursor; without it, the
            // gateway still refuses what the file sets, and says so.
            configFile.isPending ? (
              <Center p="lg">
                <Loader size="sm" aria-label={t('app.loading')} />
              </Center>
            ) : (
              <SettingsForm settings={current} configFile={configFile.data} />
            )
          }
        </QueryState>
        <WebhookDeliveriesPanel />
      </Stack>
    </>
  );
}
