import { useTranslation } from 'react-i18next';
import type { UsageLog } from '../api/types';
import { formatMilliseconds } from '../format/format-number';

/** `1,234 ms`, or `1,234 ms (first byte 300 ms)` where the record has a first byte time. */
export function useLogLatencyText(): (log: Pick<UsageLog, 'latency_ms' | 'first_byte_ms'>) => string {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (log) =>
    log.first_byte_ms === null
      ? formatMilliseconds(log.latency_ms, language)
      : `${formatMilliseconds(log.latency_ms, language)} (${t('logs.firstByte')} ${formatMilliseconds(log.first_byte_ms, language)})`;
}
