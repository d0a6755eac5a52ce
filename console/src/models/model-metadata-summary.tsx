import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ModelMetadata } from '../api/types';
import { formatCount } from '../format/format-number';
import { useCapabilityLabel } from './use-capability-label';

/** A model's metadata in a table cell; every unknown member says so, apart from "none". */
export function ModelMetadataSummary({ metadata }: { metadata: ModelMetadata | undefined }) {
  const { t, i18n } = useTranslation();
  const capabilityLabel = useCapabilityLabel();
  if (!metadata) {
    return (
      <Text size="sm" c="dimmed">
        {t('modelMetadata.nothingKnown')}
      </Text>
    );
  }
  const tokens = (value: number | null) =>
    value === null ? t('modelMetadata.unknown') : formatCount(value, i18n.language);
  return (
    <Stack gap={2}>
      <Text size="sm">
        {t('modelMetadata.tokensLine', {
          window: tokens(metadata.context_window),
          output: tokens(metadata.max_output_tokens),
        })}
      </Text>
      {metadata.capabilities === null ? (
        <Text size="xs" c="dimmed">
          {t('modelMetadata.capabilitiesUnknownShort')}
        </Text>
      ) : metadata.capabilities.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('modelMetadata.capabilitiesNoneShort')}
        </Text>
      ) : (
        <Group gap={4}>
          {metadata.capabilities.map((capability) => (
            <Badge key={capability} variant="light" tt="none" size="sm">
              {capabilityLabel(capability)}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}
