import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/api-error';
import type { WebhookTestResult } from '../api/types';
import { sendTestWebhook } from '../api/webhooks-api';

/** Sends a signed test event to the saved webhook URL; shows what the receiver answered beside it. */
export function WebhookTestButton() {
  const { t } = useTranslation();
  const test = useMutation({ mutationFn: sendTestWebhook });
  const describe = (result: WebhookTestResult): string => {
    if (result.ok) return t('webhooks.testDelivered', { status: result.status_code ?? '' });
    if (result.status_code !== null) return t('webhooks.testRefused', { status: result.status_code });
    return t('webhooks.testFailed', { error: result.error ?? '' });
  };
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Button size="xs" variant="light" loading={test.isPending} onClick={() => test.mutate()}>
          {t('webhooks.sendTest')}
        </Button>
        <Text size="sm" role="status" className="break-anywhere" c={test.data?.ok ? 'teal' : 'red'}>
          {test.isError && errorMessage(test.error)}
          {test.data && describe(test.data)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('webhooks.testHint')}
      </Text>
    </Stack>
  );
}
