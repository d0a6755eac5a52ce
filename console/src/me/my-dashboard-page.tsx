import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { formatUsd } from '../format/format-usd';
import { FigureCard } from '../stats/figure-card';
import { StatsOverview } from '../stats/stats-overview';
import { ChangePasswordForm } from './change-password-form';
import { MyBudgetUsage } from './my-budget-usage';
import { useOwnAccount } from './use-own-account';

/** A user's start page: balance, spend, their budgets' windows, their requests over time and by model. */
export function MyDashboardPage() {
  const { t } = useTranslation();
  const account = useOwnAccount();
  const unknown = t('stats.unknownGroup');
  return (
    <>
      <PageHeader title={t('nav.dashboard')} description={t('myDashboard.description')} />
      <Stack gap="md">
        <QueryState query={account}>
          {(me) => (
            <section aria-label={t('myDashboard.account')} className="card-grid">
              <FigureCard label={t('myDashboard.balance')} value={formatUsd(me.balance ?? 0)} />
              <FigureCard label={t('myDashboard.used')} value={formatUsd(me.used ?? 0)} />
              <FigureCard label={t('myDashboard.group')} value={me.group ?? 'default'} />
            </section>
          )}
        </QueryState>
        <MyBudgetUsage />
        <StatsOverview
          scope="own"
          primary={{
            groupBy: 'model',
            title: t('stats.byModel'),
            labelGroup: (group) => (group === null || group === '' ? unknown : String(group)),
          }}
        />
        <ChangePasswordForm />
      </Stack>
    </>
  );
}
