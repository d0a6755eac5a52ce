import { Badge, Code, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SseEvent } from './split-sse-events';

/** A stored stream's events in order: each one's number, its name where it has one, and its data. */
export function SseEventList({ events }: { events: readonly SseEvent[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {t('logs.streamEvents', { count: events.length })}
      </Text>
      <ScrollArea.Autosize mah={480} type="auto">
        <ol className="plain-list">
          {events.map((event, index) => (
            // A stored stream never changes: its order is the events' identity.
            <li key={index}>
              <Group gap="xs" mb={2}>
                <Text size="xs" c="dimmed">
                  #{index + 1}
                </Text>
                {event.event !== undefined && (
                  <Badge variant="outline" size="sm" tt="none">
                    {event.event}
                  </Badge>
                )}
              </Group>
              <Code block className="code-block">
                {event.data}
              </Code>
            </li>
          ))}
        </ol>
      </ScrollArea.Autosize>
    </Stack>
  );
}
