import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { fetchSettings } from '../api/settings-api';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { SettingsForm } from './settings-form';

/** Every live setting with its meaning; saving sends only the changed ones. */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: fetchSettings });
  return (
    <>
      <PageHeader title={t('nav.settings')} description={t('settings.description')} />
      <QueryState query={settings}>{(current) => <SettingsForm settings={current} />}</QueryState>
    </>
  );
}
