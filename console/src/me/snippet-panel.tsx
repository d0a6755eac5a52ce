import { Code, Group, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../components/copy-button';

export function SnippetPanel({ title, code }: { title: string; code: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h5">
            {title}
          </Title>
          <CopyButton value={code} label={t('quickStart.copySnippet', { name: title })} />
        </Group>
        <Code block className="code-block">
          {code}
        </Code>
      </Stack>
    </Paper>
  );
}
