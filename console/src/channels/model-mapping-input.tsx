import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MappingRow } from './channel-form-values';

/** Public model ID -> upstream model name, one row per pair. */
export function ModelMappingInput({
  rows,
  onChange,
}: {
  rows: MappingRow[];
  onChange: (rows: MappingRow[]) => void;
}) {
  const { t } = useTranslation();
  const setRow = (index: number, row: MappingRow) =>
    onChange(rows.map((current, position) => (position === index ? row : current)));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('channels.modelMapping')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('channels.modelMappingHint')}
      </Text>
      {rows.map((row, index) => (
        <Group key={index} align="flex-end" gap="xs">
          <TextInput
            label={t('channels.publicModel', { number: index + 1 })}
            value={row.from}
            onChange={(event) => setRow(index, { ...row, from: event.currentTarget.value })}
            className="grow"
          />
          <TextInput
            label={t('channels.upstreamModel', { number: index + 1 })}
            value={row.to}
            onChange={(event) => setRow(index, { ...row, to: event.currentTarget.value })}
            className="grow"
          />
          <Button
            variant="subtle"
            color="red"
            size="xs"
            onClick={() => onChange(rows.filter((_, position) => position !== index))}
          >
            {t('channels.removeMapping', { number: index + 1 })}
          </Button>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...rows, { from: '', to: '' }])}>
          {t('channels.addMapping')}
        </Button>
      </Group>
    </Stack>
  );
}
