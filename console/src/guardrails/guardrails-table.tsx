import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ButtonWithDisabledReason } from '../components/button-with-disabled-reason';
import { ConfirmDeleteButton } from '../components/confirm-delete-button';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { ManagedBadge } from '../config-file/managed-badge';
import { useManagedByConfig } from '../config-file/use-managed-by-config';
import type { Guardrail } from './guardrail';
import { useGuardrailLabels } from './use-guardrail-labels';

/** What a guardrail checks with: its pattern, its URL, or (a kind this console does not know) either. */
function guardrailTarget(guardrail: Guardrail): string {
  switch (guardrail.kind) {
    case 'regex':
      return guardrail.pattern ?? '';
    case 'webhook':
      return guardrail.url ?? '';
    default:
      return guardrail.pattern ?? guardrail.url ?? '';
  }
}

/**
 * The guardrails with what they check and what a match does, each with Edit and Delete (turned
 * off, with the reason, for one the configuration file manages).
 */
export function GuardrailsTable({
  guardrails,
  deleting,
  onEdit,
  onDelete,
}: {
  guardrails: readonly Guardrail[];
  deleting: boolean;
  onEdit: (guardrail: Guardrail) => void;
  onDelete: (guardrail: Guardrail) => void;
}) {
  const { t } = useTranslation();
  const labels = useGuardrailLabels();
  const { writeBlockedBy } = useManagedByConfig();
  const dimmed = (text: string) => (
    <Text size="sm" c="dimmed">
      {text}
    </Text>
  );
  const columns: Column<Guardrail>[] = [
    {
      key: 'name',
      header: t('guardrails.name'),
      render: (guardrail) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={500} className="break-anywhere">
            {guardrail.name}
          </Text>
          <ManagedBadge managed={guardrail.managed} />
        </Stack>
      ),
    },
    { key: 'kind', header: t('guardrails.kind'), render: (guardrail) => labels.kind(guardrail.kind) },
    {
      key: 'what',
      header: t('guardrails.what'),
      render: (guardrail) => {
        const target = guardrailTarget(guardrail);
        return (
          <Text size="sm" ff="monospace" truncate="end" maw={280} title={target}>
            {target}
          </Text>
        );
      },
    },
    {
      key: 'action',
      header: t('guardrails.action'),
      render: (guardrail) => (
        <Badge variant="light" tt="none" size="sm" color={guardrail.action === 'block' ? 'red' : 'gray'}>
          {labels.action(guardrail.action)}
        </Badge>
      ),
    },
    {
      key: 'fail',
      header: t('guardrails.onFailure'),
      render: (guardrail) =>
        guardrail.kind === 'regex'
          ? dimmed('—')
          : t('guardrails.failureLine', { fail: labels.fail(guardrail.fail), timeout: guardrail.timeout_ms }),
    },
    {
      key: 'groups',
      header: t('guardrails.groups'),
      render: (guardrail) =>
        guardrail.groups === null ? (
          dimmed(t('guardrails.allGroupsShort'))
        ) : (
          <Group gap={4}>
            {guardrail.groups.map((group) => (
              <Badge key={group} variant="light" tt="none" size="sm">
                {group}
              </Badge>
            ))}
          </Group>
        ),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (guardrail) => (
        <Group gap={4} justify="flex-end" wrap="wrap">
          <ButtonWithDisabledReason
            size="xs"
            variant="light"
            disabledReason={writeBlockedBy(guardrail.managed)}
            onClick={() => onEdit(guardrail)}
          >
            {t('common.edit')}
          </ButtonWithDisabledReason>
          <ConfirmDeleteButton
            name={guardrail.name}
            disabledReason={writeBlockedBy(guardrail.managed)}
            pending={deleting}
            onConfirm={() => onDelete(guardrail)}
          />
        </Group>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('nav.guardrails')}
      rows={guardrails}
      columns={columns}
      rowKey={(guardrail) => guardrail.id}
      empty={t('guardrails.empty')}
    />
  );
}
