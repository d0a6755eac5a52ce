import { useTranslation } from 'react-i18next';
import type { User } from '../api/types';
import { LimitLines } from '../budgets/limit-lines';
import { spendLimitLines } from '../budgets/spend-limit-lines';
import { formatUsd } from '../format/format-usd';

/** A user's low balance alert, concurrency cap and budgets, for their row. */
export function UserLimits({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  return (
    <LimitLines
      lines={[
        ...(user.low_balance_alert === null
          ? []
          : [`${t('users.lowBalanceAlert')}: ${formatUsd(user.low_balance_alert)}`]),
        ...spendLimitLines(user, { t, language: i18n.language }),
      ]}
    />
  );
}
