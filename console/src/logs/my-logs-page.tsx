import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { listKeys } from '../api/keys-api';
import { queryKeys } from '../api/query-keys';
import { PageHeader } from '../components/page-header';
import { LogsView } from './logs-view';
import { nameLookup } from './name-lookup';

/** The signed-in user's own requests (`/api/me/logs`). */
export function MyLogsPage() {
  const { t } = useTranslation();
  const keys = useQuery({ queryKey: queryKeys.keys('own'), queryFn: () => listKeys('own') });
  const keyNames = useMemo(
    () => new Map((keys.data ?? []).map((apiKey) => [apiKey.id, apiKey.name || apiKey.key])),
    [keys.data],
  );
  const keyName = nameLookup(keyNames);
  return (
    <>
      <PageHeader title={t('nav.logs')} description={t('logs.myDescription')} />
      <LogsView
        scope="own"
        filterOptions={{
          keys: [...keyNames].map(([id, name]) => ({ value: String(id), label: `${name} (#${id})` })),
        }}
        names={{ keyName: (id) => keyName(id) }}
      />
    </>
  );
}
