import { useTranslation } from 'react-i18next';
import type { Managed } from '../api/types';
import { useConfigFile } from './use-config-file';

/**
 * What the console says of entities the configuration file manages, naming the file; "the
 * configuration file" while the gateway names none (or its answer is not in yet).
 */
export function useManagedByConfig() {
  const { t } = useTranslation();
  const file = useConfigFile().data?.file ?? null;
  const label = file === null ? t('managed.byTheFile') : t('managed.byFile', { file });
  const reason = file === null ? t('managed.readOnlyTheFile') : t('managed.readOnly', { file });
  return {
    /** A badge's text: "Managed by <file>". */
    label,
    /** Why a write of the entity is not offered; undefined when the API owns it and may write it. */
    writeBlockedBy: (managed: Managed): string | undefined => (managed === 'config' ? reason : undefined),
  };
}
