import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Previous / Next over a list the API pages with `limit` and `offset` but does not count: a full
 * page means there may be more.
 */
export function OffsetPager({
  offset,
  limit,
  shown,
  onChange,
}: {
  offset: number;
  limit: number;
  shown: number;
  onChange: (offset: number) => void;
}) {
  const { t } = useTranslation();
  if (offset === 0 && shown < limit) return null;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {shown === 0 ? '' : t('common.pageOf', { from: offset + 1, to: offset + shown })}
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
        <Button variant="default" size="xs" disabled={shown < limit} onClick={() => onChange(offset + limit)}>
          {t('common.next')}
        </Button>
      </Group>
    </Group>
  );
}
