import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { formatCount } from '../format/format-number';
import { formatPrice } from '../format/format-price';
import { useCapabilityLabel } from '../models/use-capability-label';
import type { ModelPricing } from './model-pricing';

/** The prices that apply to some requests only: per call, audio, speech; each with its line's text. */
function otherPrices(
  entry: ModelPricing,
  lines: Record<
    'perRequest' | 'inputAudio' | 'outputAudio' | 'perMinute' | 'perMillionCharacters',
    (price: string) => string
  >,
): string[] {
  const prices = {
    perRequest: entry.per_request,
    inputAudio: entry.input_audio,
    outputAudio: entry.output_audio,
    perMinute: entry.per_minute,
    perMillionCharacters: entry.per_million_characters,
  };
  return Object.entries(prices).flatMap(([name, value]) =>
    value === null || value === undefined ? [] : [lines[name as keyof typeof prices](formatPrice(value))],
  );
}

/** Every priced model: token prices per 1M tokens, the other prices, context window and capabilities. */
export function PricingTable({ models }: { models: readonly ModelPricing[] }) {
  const { t, i18n } = useTranslation();
  const capabilityLabel = useCapabilityLabel();
  const none = (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
  const lines = {
    perRequest: (price: string) => t('pricing.perRequest', { price }),
    inputAudio: (price: string) => t('pricing.inputAudio', { price }),
    outputAudio: (price: string) => t('pricing.outputAudio', { price }),
    perMinute: (price: string) => t('pricing.perMinute', { price }),
    perMillionCharacters: (price: string) => t('pricing.perMillionCharacters', { price }),
  };
  const price = (value: number | null) => (value === null ? none : formatPrice(value));
  const columns: Column<ModelPricing>[] = [
    {
      key: 'model',
      header: t('pricing.model'),
      render: (entry) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={500} ff="monospace" className="break-anywhere">
            {entry.model}
          </Text>
          <Text size="xs" c="dimmed">
            {entry.endpoint_types.join(', ')}
          </Text>
        </Stack>
      ),
    },
    { key: 'input', header: t('pricing.input'), align: 'right', render: (entry) => formatPrice(entry.input) },
    {
      key: 'output',
      header: t('pricing.output'),
      align: 'right',
      render: (entry) => formatPrice(entry.output),
    },
    {
      key: 'cached',
      header: t('pricing.cachedInput'),
      align: 'right',
      render: (entry) => price(entry.cached_input),
    },
    {
      key: 'cacheWrite',
      header: t('pricing.cacheWrite'),
      align: 'right',
      render: (entry) => price(entry.cache_write),
    },
    {
      key: 'other',
      header: t('pricing.other'),
      render: (entry) => {
        const others = otherPrices(entry, lines);
        if (others.length === 0) return none;
        return (
          <Stack gap={0}>
            {others.map((line) => (
              <Text key={line} size="sm">
                {line}
              </Text>
            ))}
          </Stack>
        );
      },
    },
    {
      key: 'context',
      header: t('pricing.contextWindow'),
      align: 'right',
      render: (entry) =>
        entry.context_window === null ? none : formatCount(entry.context_window, i18n.language),
    },
    {
      key: 'capabilities',
      header: t('pricing.capabilities'),
      render: (entry) =>
        entry.capabilities === null || entry.capabilities.length === 0 ? (
          none
        ) : (
          <Group gap={4}>
            {entry.capabilities.map((capability) => (
              <Badge key={capability} variant="light" tt="none" size="sm">
                {capabilityLabel(capability)}
              </Badge>
            ))}
          </Group>
        ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('pricing.tableLabel')}
      rows={models}
      columns={columns}
      rowKey={(entry) => entry.model}
      empty={t('pricing.empty')}
    />
  );
}
