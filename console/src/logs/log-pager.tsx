import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Previous / Next over a list of `total` records shown `limit` at a time. */
export function LogPager({
  offset,
  limit,
  shown,
  total,
  onChange,
}: {
  offset: number;
  limit: number;
  shown: number;
  total: number;
  onChange: (offset: number) => void;
}) {
  const { t } = useTranslation();
  if (total === 0) return null;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {t('common.pageOf', { from: offset + 1, to: offset + shown })} ·{' '}
        {t('logs.totalRequests', { count: total })}
      </Text>
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          {t('common.previous')}
        </Button>
        <Button
          variant="default"
          size="xs"
          disabled={offset + shown >= total}
          onClick={() => onChange(offset + limit)}
        >
          {t('common.next')}
        </Button>
      </Group>
    </Group>
  );
}
