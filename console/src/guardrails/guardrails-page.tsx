import { Button } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listGroups } from '../api/groups-api';
import { queryKeys } from '../api/query-keys';
import { notifyError, notifySuccess } from '../components/notify';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import type { Guardrail } from './guardrail';
import { GuardrailFormModal } from './guardrail-form-modal';
import { deleteGuardrail, guardrailsQueryKey, listGuardrails } from './guardrails-api';
import { GuardrailsTable } from './guardrails-table';

/** Guardrails (admin-api section 12): regex and webhook checks on the text of every request. */
export function GuardrailsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const guardrails = useQuery({ queryKey: guardrailsQueryKey, queryFn: listGuardrails });
  // Only offered as suggestions: the form works without them.
  const groups = useQuery({ queryKey: queryKeys.groups, queryFn: listGroups });
  const [editing, setEditing] = useState<{ guardrail: Guardrail | undefined } | null>(null);
  const remove = useMutation({
    mutationFn: (guardrail: Guardrail) => deleteGuardrail(guardrail.id),
    onSuccess: (_deleted, guardrail) => {
      void queryClient.invalidateQueries({ queryKey: guardrailsQueryKey });
      notifySuccess(t('guardrails.deleted', { name: guardrail.name }));
    },
    onError: (error) => notifyError(t('common.error'), error),
  });
  return (
    <>
      <PageHeader
        title={t('nav.guardrails')}
        description={t('guardrails.description')}
        actions={
          <Button onClick={() => setEditing({ guardrail: undefined })}>{t('guardrails.create')}</Button>
        }
      />
      <QueryState query={guardrails}>
        {(rows) => (
          <GuardrailsTable
            guardrails={rows}
            deleting={remove.isPending}
            onEdit={(guardrail) => setEditing({ guardrail })}
            onDelete={(guardrail) => remove.mutate(guardrail)}
          />
        )}
      </QueryState>
      <GuardrailFormModal
        opened={editing !== null}
        guardrail={editing?.guardrail}
        takenNames={(guardrails.data ?? []).map((guardrail) => guardrail.name)}
        knownGroups={(groups.data ?? []).map((group) => group.name)}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
