import { useTranslation } from 'react-i18next';
import { formatCount, formatMilliseconds, formatPercent } from '../format/format-number';
import { formatUsd } from '../format/format-usd';
import { FigureCard } from './figure-card';
import type { StatsFigures } from './summarize-stats';

export function StatsSummaryCards({ figures }: { figures: StatsFigures }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <div className="card-grid">
      <FigureCard label={t('stats.requests')} value={formatCount(figures.requests, language)} />
      <FigureCard
        label={t('stats.tokens')}
        value={formatCount(figures.promptTokens + figures.completionTokens, language)}
      />
      <FigureCard label={t('stats.cost')} value={formatUsd(figures.cost)} />
      <FigureCard label={t('stats.errorRate')} value={formatPercent(figures.errorRate, language)} />
      {figures.latencyMs !== null && (
        <FigureCard label={t('stats.latency')} value={formatMilliseconds(figures.latencyMs, language)} />
      )}
    </div>
  );
}
