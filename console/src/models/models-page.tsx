import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteModelMetadata, listModelMetadata } from '../api/model-metadata-api';
import { deletePrice, listPrices } from '../api/prices-api';
import { queryKeys } from '../api/query-keys';
import type { ModelMetadata, Price } from '../api/types';
import { useChannels } from '../channels/use-channels';
import { ButtonWithDisabledReason } from '../components/button-with-disabled-reason';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { notifyError } from '../components/notify';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { ManagedBadge } from '../config-file/managed-badge';
import { useManagedByConfig } from '../config-file/use-managed-by-config';
import { formatUsd } from '../format/format-usd';
import { collectModels, type ModelEntry } from './collect-models';
import { ModelMetadataModal } from './model-metadata-modal';
import { ModelMetadataSummary } from './model-metadata-summary';
import { PriceModal } from './price-modal';

/**
 * Models & prices: what the channels serve, what each model costs (or that it is not priced), and
 * what is known of it for routing (admin-api section 11.1). A price or metadata the configuration
 * file manages is only read here.
 */
export function ModelsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { writeBlockedBy } = useManagedByConfig();
  const channels = useChannels();
  const prices = useQuery({ queryKey: queryKeys.prices, queryFn: listPrices });
  const metadata = useQuery({ queryKey: queryKeys.modelMetadata, queryFn: listModelMetadata });
  const [target, setTarget] = useState<{ model: string | undefined; price: Price | undefined } | null>(null);
  const [metadataTarget, setMetadataTarget] = useState<{
    model: string;
    metadata: ModelMetadata | undefined;
  } | null>(null);
  const remove = useMutation({
    mutationFn: (model: string) => deletePrice(model),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.prices }),
    onError: (error) => notifyError(t('common.error'), error),
  });
  const forget = useMutation({
    mutationFn: (model: string) => deleteModelMetadata(model),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.modelMetadata }),
    onError: (error) => notifyError(t('common.error'), error),
  });
  const columns: Column<ModelEntry>[] = [
    {
      key: 'model',
      header: t('models.model'),
      render: (entry) => (
        <Text size="sm" fw={500} className="break-anywhere">
          {entry.model}
        </Text>
      ),
    },
    {
      key: 'channels',
      header: t('models.channels'),
      render: (entry) =>
        entry.channels.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('models.notServed')}
          </Text>
        ) : (
          <Text size="sm" className="break-anywhere">
            {entry.channels.map((channel) => `${channel.name} (#${channel.id})`).join(', ')}
          </Text>
        ),
    },
    {
      key: 'endpoints',
      header: t('models.endpointTypes'),
      render: (entry) => (
        <Group gap={4}>
          {entry.endpointTypes.map((endpoint) => (
            <Badge key={endpoint} variant="outline" tt="none" size="sm">
              {endpoint}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'price',
      header: t('models.price'),
      render: (entry) =>
        entry.price ? (
          <Stack gap={2} align="flex-start">
            <Text size="sm">
              {t('models.inputOutput', {
                input: formatUsd(entry.price.input),
                output: formatUsd(entry.price.output),
              })}
            </Text>
            {entry.price.per_minute !== null && (
              <Text size="sm">
                {t('models.perMinuteSummary', { price: formatUsd(entry.price.per_minute) })}
              </Text>
            )}
            {entry.price.per_million_characters !== null && (
              <Text size="sm">
                {t('models.perMillionCharactersSummary', {
                  price: formatUsd(entry.price.per_million_characters),
                })}
              </Text>
            )}
            <ManagedBadge managed={entry.price.managed} />
          </Stack>
        ) : (
          <Badge color="orange" variant="light" tt="none">
            {t('models.notPriced')}
          </Badge>
        ),
    },
    {
      key: 'metadata',
      header: t('modelMetadata.column'),
      render: (entry) => (
        <Stack gap={2} align="flex-start">
          <ModelMetadataSummary metadata={entry.metadata} />
          {entry.metadata && <ManagedBadge managed={entry.metadata.managed} />}
        </Stack>
      ),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (entry) => {
        const priceBlockedBy = entry.price && writeBlockedBy(entry.price.managed);
        const metadataBlockedBy = entry.metadata && writeBlockedBy(entry.metadata.managed);
        return (
          <Group gap={4} justify="flex-end" wrap="wrap">
            <ButtonWithDisabledReason
              size="xs"
              variant="light"
              disabledReason={priceBlockedBy}
              onClick={() => setTarget({ model: entry.model, price: entry.price })}
            >
              {t('models.setPrice')}
            </ButtonWithDisabledReason>
            {entry.price && (
              <ConfirmDeleteButton
                name={entry.model}
                label={t('models.removePrice')}
                disabledReason={priceBlockedBy}
                pending={remove.isPending}
                onConfirm={() => remove.mutate(entry.model)}
              />
            )}
            <ButtonWithDisabledReason
              size="xs"
              variant="light"
              disabledReason={metadataBlockedBy}
              onClick={() => setMetadataTarget({ model: entry.model, metadata: entry.metadata })}
            >
              {t('modelMetadata.edit')}
            </ButtonWithDisabledReason>
            {entry.metadata && (
              <ConfirmDeleteButton
                name={entry.model}
                label={t('modelMetadata.forget')}
                disabledReason={metadataBlockedBy}
                pending={forget.isPending}
                onConfirm={() => forget.mutate(entry.model)}
              />
            )}
          </Group>
        );
      },
    },
  ];
  return (
    <>
      <PageHeader
        title={t('nav.models')}
        description={t('models.description')}
        actions={
          <Button variant="light" onClick={() => setTarget({ model: undefined, price: undefined })}>
            {t('models.otherModel')}
          </Button>
        }
      />
      <QueryState query={channels}>
        {(channelList) => (
          <QueryState query={prices}>
            {(priceList) => (
              <QueryState query={metadata}>
                {(metadataList) => (
                  <ResponsiveTable
                    label={t('nav.models')}
                    rows={collectModels({ channels: channelList, prices: priceList, metadata: metadataList })}
                    columns={columns}
                    rowKey={(entry) => entry.model}
                    empty={t('common.empty')}
                  />
                )}
              </QueryState>
            )}
          </QueryState>
        )}
      </QueryState>
      <PriceModal target={target} onClose={() => setTarget(null)} />
      <ModelMetadataModal target={metadataTarget} onClose={() => setMetadataTarget(null)} />
    </>
  );
}
