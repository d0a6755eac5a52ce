import { useTranslation } from 'react-i18next';
import { ToggleButtons } from '../components/toggle-buttons';
import type { StatsRange } from './stats-window';

export function RangeSwitch({
  value,
  onChange,
}: {
  value: StatsRange;
  onChange: (range: StatsRange) => void;
}) {
  const { t } = useTranslation();
  return (
    <ToggleButtons
      label={t('stats.range')}
      value={value}
      onChange={onChange}
      options={[
        { value: '24h', label: t('stats.last24h') },
        { value: '30d', label: t('stats.last30d') },
      ]}
    />
  );
}
