import { Button } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listPrices } from '../api/prices-api';
import { queryKeys } from '../api/query-keys';
import type { VirtualModel } from '../api/types';
import { deleteVirtualModel, listVirtualModels } from '../api/virtual-models-api';
import { useChannels } from '../channels/use-channels';
import { notifyError, notifySuccess } from '../components/notify';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { targetChoices } from './target-choices';
import { VirtualModelFormModal } from './virtual-model-form-modal';
import { VirtualModelsTable } from './virtual-models-table';

/** Virtual models (admin-api section 11.2): public model IDs that route to other models, with fallback. */
export function VirtualModelsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const virtualModels = useQuery({ queryKey: queryKeys.virtualModels, queryFn: listVirtualModels });
  const channels = useChannels();
  const prices = useQuery({ queryKey: queryKeys.prices, queryFn: listPrices });
  const [editing, setEditing] = useState<{ virtualModel: VirtualModel | undefined } | null>(null);
  const remove = useMutation({
    mutationFn: (name: string) => deleteVirtualModel(name),
    onSuccess: (_deleted, name) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.virtualModels });
      notifySuccess(t('virtualModels.deleted', { name }));
    },
    onError: (error) => notifyError(t('common.error'), error),
  });
  const choices = targetChoices({ channels: channels.data ?? [], prices: prices.data ?? [] });
  const names = (virtualModels.data ?? []).map((virtualModel) => virtualModel.name);
  return (
    <>
      <PageHeader
        title={t('nav.virtualModels')}
        description={t('virtualModels.description')}
        actions={
          <Button onClick={() => setEditing({ virtualModel: undefined })} disabled={!channels.data}>
            {t('virtualModels.create')}
          </Button>
        }
      />
      <QueryState query={virtualModels}>
        {(rows) => (
          <VirtualModelsTable
            virtualModels={rows}
            deleting={remove.isPending}
            onEdit={(virtualModel) => setEditing({ virtualModel })}
            onDelete={(virtualModel) => remove.mutate(virtualModel.name)}
          />
        )}
      </QueryState>
      <VirtualModelFormModal
        opened={editing !== null}
        virtualModel={editing?.virtualModel}
        choices={choices}
        servedModels={choices.map((choice) => choice.model)}
        takenNames={names}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
