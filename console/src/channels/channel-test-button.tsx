import { Button, Group, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/api-error';
import { testChannel } from '../api/channels-api';

/** Sends the channel's one-token test request; shows the latency or the upstream's error beside it. */
export function ChannelTestButton({ channelId }: { channelId: number }) {
  const { t } = useTranslation();
  const test = useMutation({ mutationFn: () => testChannel(channelId) });
  const result = test.data;
  return (
    <Group gap="xs" wrap="wrap">
      <Button size="xs" variant="light" loading={test.isPending} onClick={() => test.mutate()}>
        {t('channels.test')}
      </Button>
      <Text size="xs" role="status" className="break-anywhere" c={result?.ok ? 'teal' : 'red'}>
        {test.isError && errorMessage(test.error)}
        {result &&
          (result.ok
            ? t('channels.testOk', { latency: result.latency_ms })
            : t('channels.testFailed', { latency: result.latency_ms, error: result.error ?? '' }))}
      </Text>
    </Group>
  );
}
