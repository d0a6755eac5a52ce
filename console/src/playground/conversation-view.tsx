import { Alert, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AnswerStats } from './answer-stats';
import type { PlaygroundEntry } from './playground-entry';

/** The questions and the answers so far; an answer's text grows while it streams. */
export function ConversationView({ entries }: { entries: readonly PlaygroundEntry[] }) {
  const { t } = useTranslation();
  if (entries.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md">
        {t('playground.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="sm" role="log" aria-label={t('playground.conversation')} aria-live="polite">
      {entries.map((entry) =>
        entry.role === 'user' ? (
          <Paper key={entry.id} withBorder p="sm" radius="md" bg="var(--mantine-color-blue-light)">
            <Text size="xs" fw={600} mb={4}>
              {t('playground.you')}
            </Text>
            <Text size="sm" className="break-anywhere pre-wrap">
              {entry.content}
            </Text>
          </Paper>
        ) : (
          <Paper
            key={entry.id}
            withBorder
            p="sm"
            radius="md"
            aria-busy={entry.state === 'streaming'}
            data-testid="playground-answer"
          >
            <Group gap="xs" mb={4}>
              <Text size="xs" fw={600} ff="monospace">
                {entry.model}
              </Text>
              {entry.state === 'stopped' && (
                <Badge size="xs" variant="light" color="gray" tt="none">
                  {t('playground.stopped')}
                </Badge>
              )}
            </Group>
            {entry.reasoning !== '' && (
              <Text size="xs" c="dimmed" fs="italic" mb={4} className="break-anywhere pre-wrap">
                {entry.reasoning}
              </Text>
            )}
            <Text size="sm" className="break-anywhere pre-wrap" data-testid="answer-text">
              {entry.content}
            </Text>
            {entry.state === 'failed' && (
              <Alert color="red" mt="xs" role="alert" p="xs">
                {entry.error}
              </Alert>
            )}
            <AnswerStats entry={entry} />
          </Paper>
        ),
      )}
    </Stack>
  );
}
