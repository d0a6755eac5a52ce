import { Button } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listKeys } from '../api/keys-api';
import { queryKeys } from '../api/query-keys';
import type { ApiKey } from '../api/types';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { KeyCreatedModal } from './key-created-modal';
import { KeyFormModal } from './key-form-modal';
import { KeysTable } from './keys-table';

/** A user's own keys (`/api/me/keys`). */
export function MyKeysPage() {
  const { t } = useTranslation();
  const keys = useQuery({ queryKey: queryKeys.keys('own'), queryFn: () => listKeys('own') });
  const [editing, setEditing] = useState<{ apiKey: ApiKey | undefined } | null>(null);
  const [created, setCreated] = useState<ApiKey | undefined>(undefined);
  return (
    <>
      <PageHeader
        title={t('nav.keys')}
        description={t('keys.myDescription')}
        actions={<Button onClick={() => setEditing({ apiKey: undefined })}>{t('keys.create')}</Button>}
      />
      <QueryState query={keys}>
        {(rows) => <KeysTable scope="own" keys={rows} onEdit={(apiKey) => setEditing({ apiKey })} />}
      </QueryState>
      <KeyFormModal
        scope="own"
        opened={editing !== null}
        apiKey={editing?.apiKey}
        onClose={() => setEditing(null)}
        onCreated={setCreated}
      />
      <KeyCreatedModal apiKey={created} onClose={() => setCreated(undefined)} />
    </>
  );
}
