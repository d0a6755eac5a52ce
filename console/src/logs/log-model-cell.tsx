import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UsageLog } from '../api/types';

/** The model the client asked for, when another one served it (a virtual model's target, a fallback). */
export function requestedModelIfOther(log: Pick<UsageLog, 'model' | 'requested_model'>): string | undefined {
  const requested = log.requested_model;
  return requested === undefined || requested === null || requested === log.model ? undefined : requested;
}

/** The served model, and beside it the requested one where they differ (admin-api section 11.2). */
export function LogModelCell({ log }: { log: Pick<UsageLog, 'model' | 'requested_model'> }) {
  const { t } = useTranslation();
  const requested = requestedModelIfOther(log);
  const served = (
    <Text size="sm" className="break-anywhere">
      {log.model}
    </Text>
  );
  if (requested === undefined) return served;
  return (
    <Stack gap={0}>
      {served}
      <Text size="xs" c="dimmed" className="break-anywhere">
        {t('logs.requestedAs', { model: requested })}
      </Text>
    </Stack>
  );
}
