import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listKeys } from '../api/keys-api';
import { queryKeys } from '../api/query-keys';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { SnippetList } from './snippet-list';

/** Copy-ready code for the official SDKs and curl, with this gateway's address and the chosen key. */
export function QuickStartPage() {
  const { t } = useTranslation();
  const keys = useQuery({ queryKey: queryKeys.keys('own'), queryFn: () => listKeys('own') });
  return (
    <>
      <PageHeader title={t('nav.quickStart')} description={t('quickStart.description')} />
      <QueryState query={keys}>{(rows) => <SnippetList keys={rows} />}</QueryState>
    </>
  );
}
