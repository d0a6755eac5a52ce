import { useTranslation } from 'react-i18next';
import type { UsageLog } from '../api/types';
import { formatCount, formatTenths } from '../format/format-number';

/**
 * What an audio request was billed by beside its tokens (admin-api section 14): `12.4 s audio` of
 * input audio, or `1,234 chars` of text to speak; undefined for other records.
 */
export function useLogAudioText(): (
  log: Pick<UsageLog, 'audio_seconds' | 'characters'>,
) => string | undefined {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (log) => {
    if (log.audio_seconds !== null)
      return t('logs.audioSeconds', { seconds: formatTenths(log.audio_seconds, language) });
    if (log.characters !== null)
      return t('logs.characters', {
        count: log.characters,
        formatted: formatCount(log.characters, language),
      });
    return undefined;
  };
}
