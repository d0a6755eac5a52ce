import { Alert, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '../api/types';
import { keyPrefix, quickStartSnippets, type SnippetName } from './quick-start-snippets';
import { SnippetPanel } from './snippet-panel';

const SNIPPETS: readonly SnippetName[] = ['openai', 'anthropic', 'google', 'curl'];

/** The chosen key and model, and a snippet per SDK filled with them. */
export function SnippetList({ keys }: { keys: readonly ApiKey[] }) {
  const { t } = useTranslation();
  const [keyId, setKeyId] = useState(String(keys[0]?.id ?? ''));
  const chosen = keys.find((apiKey) => String(apiKey.id) === keyId) ?? keys[0];
  const [model, setModel] = useState(chosen?.model_limits?.[0] ?? 'gpt-4o-mini');
  if (!chosen) return <Alert color="blue">{t('quickStart.noKey')}</Alert>;
  const origin = window.location.origin;
  const snippets = quickStartSnippets({ origin, apiKey: keyPrefix(chosen.key), model });
  return (
    <Stack gap="md">
      <Group grow align="flex-start">
        <NativeSelect
          label={t('quickStart.key')}
          value={keyId}
          onChange={(event) => setKeyId(event.currentTarget.value)}
          data={keys.map((apiKey) => ({
            value: String(apiKey.id),
            label: `${apiKey.name || apiKey.key} (${apiKey.key})`,
          }))}
        />
        <TextInput
          label={t('quickStart.model')}
          value={model}
          onChange={(event) => setModel(event.currentTarget.value)}
        />
      </Group>
      <Text size="sm">
        {t('quickStart.baseUrl')}:{' '}
        <Text span ff="monospace">
          {origin}
        </Text>
      </Text>
      <Alert color="yellow">{t('quickStart.keyNote')}</Alert>
      {SNIPPETS.map((name) => (
        <SnippetPanel key={name} title={t(`quickStart.${name}`)} code={snippets[name]} />
      ))}
    </Stack>
  );
}
