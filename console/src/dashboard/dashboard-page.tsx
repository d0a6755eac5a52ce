import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useChannels } from '../channels/use-channels';
import { PageHeader } from '../components/page-header';
import { labelById } from '../stats/label-by-id';
import { StatsOverview } from '../stats/stats-overview';

/** The admin's start page: every request of the gateway, by model and by channel. */
export function DashboardPage() {
  const { t } = useTranslation();
  const channels = useChannels();
  const channelNames = useMemo(
    () => new Map((channels.data ?? []).map((channel) => [channel.id, channel.name])),
    [channels.data],
  );
  const unknown = t('stats.unknownGroup');
  return (
    <>
      <PageHeader title={t('nav.dashboard')} description={t('dashboard.description')} />
      <StatsOverview
        scope="admin"
        primary={{
          groupBy: 'model',
          title: t('stats.byModel'),
          labelGroup: (group) => (group === null || group === '' ? unknown : String(group)),
        }}
        secondary={{
          groupBy: 'channel',
          title: t('stats.byChannel'),
          labelGroup: labelById(channelNames, unknown),
        }}
      />
    </>
  );
}
