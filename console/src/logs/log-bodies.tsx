import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UsageLogDetail } from '../api/types';
import { StoredBodyPanel } from './stored-body-panel';

/** A record's request and response bodies (admin-api section 12), or why there are none. */
export function LogBodies({ detail }: { detail: UsageLogDetail }) {
  const { t } = useTranslation();
  if (detail.request_body === null && detail.response_body === null) {
    return (
      <Text size="sm" c="dimmed">
        {t('logs.bodiesNotStored')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {detail.body_truncated && (
        <Alert color="yellow" variant="light">
          {t('logs.bodiesTruncated')}
        </Alert>
      )}
      <StoredBodyPanel
        title={t('logs.requestBody')}
        copyLabel={t('logs.copyRequestBody')}
        text={detail.request_body}
        streamed={false}
      />
      <StoredBodyPanel
        title={t('logs.responseBody')}
        copyLabel={t('logs.copyResponseBody')}
        text={detail.response_body}
        streamed={detail.stream}
      />
    </Stack>
  );
}
