import { useTranslation } from 'react-i18next';
import type { UsageTotals } from '../api/types';
import { formatCount } from '../format/format-number';
import { formatUsd } from '../format/format-usd';
import { FigureCard } from '../stats/figure-card';

/** Sums over every record the filters match, not only the page shown. */
export function LogTotals({ totals }: { totals: UsageTotals }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-label={t('logs.totals')} className="card-grid">
      <FigureCard label={t('stats.requests')} value={formatCount(totals.requests, i18n.language)} />
      <FigureCard label={t('stats.promptTokens')} value={formatCount(totals.prompt_tokens, i18n.language)} />
      <FigureCard
        label={t('stats.completionTokens')}
        value={formatCount(totals.completion_tokens, i18n.language)}
      />
      <FigureCard label={t('stats.cost')} value={formatUsd(totals.cost)} />
    </section>
  );
}
