import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { VirtualModel } from '../api/types';
import { ButtonWithDisabledReason } from '../components/button-with-disabled-reason';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { ManagedBadge } from '../config-file/managed-badge';
import { useManagedByConfig } from '../config-file/use-managed-by-config';
import { useFallbackKindLabel } from './use-fallback-kind-label';
import { useStrategyLabel } from './use-strategy-label';

/**
 * The virtual models with their targets and routing, each with Edit and Delete (turned off, with
 * the reason, for one the configuration file manages).
 */
export function VirtualModelsTable({
  virtualModels,
  deleting,
  onEdit,
  onDelete,
}: {
  virtualModels: readonly VirtualModel[];
  deleting: boolean;
  onEdit: (virtualModel: VirtualModel) => void;
  onDelete: (virtualModel: VirtualModel) => void;
}) {
  const { t } = useTranslation();
  const strategyLabel = useStrategyLabel();
  const fallbackKindLabel = useFallbackKindLabel();
  const { writeBlockedBy } = useManagedByConfig();
  const columns: Column<VirtualModel>[] = [
    {
      key: 'name',
      header: t('virtualModels.name'),
      render: (virtualModel) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={500} className="break-anywhere">
            {virtualModel.name}
          </Text>
          <ManagedBadge managed={virtualModel.managed} />
        </Stack>
      ),
    },
    {
      key: 'targets',
      header: t('virtualModels.targets'),
      render: (virtualModel) => (
        <Stack gap={2}>
          {virtualModel.targets.map((target, index) => (
            <Text key={index} size="sm" className="break-anywhere">
              {t('virtualModels.targetLine', {
                model: target.model,
                priority: target.priority,
                weight: target.weight,
              })}
            </Text>
          ))}
        </Stack>
      ),
    },
    {
      key: 'strategy',
      header: t('virtualModels.strategy'),
      render: (virtualModel) => strategyLabel(virtualModel.strategy),
    },
    {
      key: 'fallback',
      header: t('virtualModels.fallbackOn'),
      render: (virtualModel) =>
        virtualModel.fallback_on.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('virtualModels.noFallback')}
          </Text>
        ) : (
          <Group gap={4}>
            {virtualModel.fallback_on.map((kind) => (
              <Badge key={kind} variant="light" tt="none" size="sm">
                {fallbackKindLabel(kind)}
              </Badge>
            ))}
          </Group>
        ),
    },
    {
      key: 'sticky',
      header: t('virtualModels.stickyShort'),
      render: (virtualModel) => (virtualModel.sticky ? t('common.yes') : t('common.no')),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (virtualModel) => (
        <Group gap={4} justify="flex-end" wrap="wrap">
          <ButtonWithDisabledReason
            size="xs"
            variant="light"
            disabledReason={writeBlockedBy(virtualModel.managed)}
            onClick={() => onEdit(virtualModel)}
          >
            {t('common.edit')}
          </ButtonWithDisabledReason>
          <ConfirmDeleteButton
            name={virtualModel.name}
            disabledReason={writeBlockedBy(virtualModel.managed)}
            pending={deleting}
            onConfirm={() => onDelete(virtualModel)}
          />
        </Group>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.virtualModels')}
      rows={virtualModels}
      columns={columns}
      rowKey={(virtualModel) => virtualModel.name}
      empty={t('virtualModels.empty')}
    />
  );
}
