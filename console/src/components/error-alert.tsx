import { Alert, Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/api-error';

/** A failed call's own message, with a retry button when there is something to retry. */
export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('common.error')} role="alert">
      <Stack gap="xs" align="flex-start">
        <span className="break-anywhere">{errorMessage(error)}</span>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
