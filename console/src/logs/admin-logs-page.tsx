import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { listKeys } from '../api/keys-api';
import { queryKeys } from '../api/query-keys';
import { useChannels } from '../channels/use-channels';
import { PageHeader } from '../components/page-header';
import { useUsers } from '../users/use-users';
import { LogsView } from './logs-view';
import { nameLookup } from './name-lookup';

/** Every relayed request, filtered by user, key, model, channel, status and time. */
export function AdminLogsPage() {
  const { t } = useTranslation();
  const users = useUsers();
  const channels = useChannels();
  const keys = useQuery({ queryKey: [...queryKeys.keys('admin'), 'all'], queryFn: () => listKeys('admin') });
  const userNames = useMemo(
    () => new Map((users.data ?? []).map((user) => [user.id, user.username])),
    [users.data],
  );
  const keyNames = useMemo(
    () => new Map((keys.data ?? []).map((apiKey) => [apiKey.id, apiKey.name || apiKey.key])),
    [keys.data],
  );
  const channelNames = useMemo(
    () => new Map((channels.data ?? []).map((channel) => [channel.id, channel.name])),
    [channels.data],
  );
  const options = (names: ReadonlyMap<number, string>) =>
    [...names].map(([id, name]) => ({ value: String(id), label: `${name} (#${id})` }));
  const userName = nameLookup(userNames);
  const keyName = nameLookup(keyNames);
  return (
    <>
      <PageHeader title={t('nav.logs')} description={t('logs.description')} />
      <LogsView
        scope="admin"
        filterOptions={{
          users: options(userNames),
          keys: options(keyNames),
          channels: options(channelNames),
        }}
        names={{
          userName: (id) => userName(id),
          keyName: (id) => keyName(id),
          channelName: nameLookup(channelNames),
        }}
      />
    </>
  );
}
