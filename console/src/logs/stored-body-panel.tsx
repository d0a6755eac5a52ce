import { Code, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../components/copy-button';
import { readStoredBody, type StoredBodyView } from './read-stored-body';
import { SseEventList } from './sse-event-list';

const BODY_MAX_HEIGHT = 480;

function BodyCode({ text }: { text: string }) {
  return (
    <ScrollArea.Autosize mah={BODY_MAX_HEIGHT} type="auto">
      <Code block className="code-block">
        {text}
      </Code>
    </ScrollArea.Autosize>
  );
}

function StoredBody({ view }: { view: StoredBodyView }) {
  const { t } = useTranslation();
  switch (view.kind) {
    case 'json':
      return <BodyCode text={view.text} />;
    case 'raw':
      return (
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {t('logs.bodyNotJson')}
          </Text>
          <BodyCode text={view.text} />
        </Stack>
      );
    case 'events':
      return <SseEventList events={view.events} />;
    default: {
      const unknown: never = view;
      throw new Error(`unknown body view ${JSON.stringify(unknown)}`);
    }
  }
}

/** One stored body under its title, readably laid out, with a button copying it exactly as stored. */
export function StoredBodyPanel({
  title,
  copyLabel,
  text,
  streamed,
}: {
  title: string;
  copyLabel: string;
  text: string | null;
  streamed: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h5" id={titleId}>
            {title}
          </Title>
          {text !== null && <CopyButton value={text} label={copyLabel} />}
        </Group>
        {text === null ? (
          <Text size="sm" c="dimmed">
            {t('logs.bodyNotStored')}
          </Text>
        ) : (
          <StoredBody view={readStoredBody({ text, streamed })} />
        )}
      </Stack>
    </Paper>
  );
}
