import { useTranslation } from 'react-i18next';
import { QueryState } from '../components/query-state';
import { formatUsd } from '../format/format-usd';
import { FigureCard } from '../stats/figure-card';
import { useOwnAccount } from './use-own-account';

/** The caller's balance as it is now. */
export function OwnBalance() {
  const { t } = useTranslation();
  const account = useOwnAccount();
  return (
    <QueryState query={account}>
      {(me) => (
        <section aria-label={t('myDashboard.balance')} className="card-grid">
          <FigureCard label={t('myDashboard.balance')} value={formatUsd(me.balance ?? 0)} />
        </section>
      )}
    </QueryState>
  );
}
