import { Button, Stack } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { notifyError, notifySuccess } from '../components/notify';
import { OffsetPager } from '../components/offset-pager';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { useUsers } from '../users/use-users';
import { CreateRedemptionCodesModal } from './create-redemption-codes-modal';
import type { CreatedRedemptionCode, RedemptionCode } from './redemption-code';
import { deleteRedemptionCode, listRedemptionCodes, setRedemptionCodeStatus } from './redemption-codes-api';
import { RedemptionCodesCreatedModal } from './redemption-codes-created-modal';
import { RedemptionCodesTable } from './redemption-codes-table';

const PAGE_SIZE = 100;

/** Redemption codes (admin-api section 15): made in batches, shown once, then listed masked. */
export function RedemptionCodesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const codes = useQuery({
    queryKey: [...queryKeys.redemptionCodes, offset],
    queryFn: () => listRedemptionCodes({ limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
  const users = useUsers();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedRedemptionCode[] | undefined>(undefined);
  const change = useMutation({
    mutationFn: async (action: { kind: 'disabled' | 'unused' | 'delete'; code: RedemptionCode }) => {
      if (action.kind === 'delete') await deleteRedemptionCode(action.code.id);
      else await setRedemptionCodeStatus(action.code.id, action.kind);
    },
    onSuccess: (_nothing, action) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.redemptionCodes });
      const messages = {
        disabled: t('redemptionCodes.disabled'),
        unused: t('redemptionCodes.enabled'),
        delete: t('common.deleted'),
      };
      notifySuccess(messages[action.kind]);
    },
    onError: (error) => notifyError(t('common.error'), error),
  });
  return (
    <>
      <PageHeader
        title={t('nav.redemptionCodes')}
        description={t('redemptionCodes.description')}
        actions={<Button onClick={() => setCreating(true)}>{t('redemptionCodes.create')}</Button>}
      />
      <QueryState query={codes}>
        {(rows) => (
          <Stack gap="sm">
            <RedemptionCodesTable
              codes={rows}
              users={users.data}
              busy={change.isPending}
              onSetStatus={(code, status) => change.mutate({ kind: status, code })}
              onDelete={(code) => change.mutate({ kind: 'delete', code })}
            />
            <OffsetPager offset={offset} limit={PAGE_SIZE} shown={rows.length} onChange={setOffset} />
          </Stack>
        )}
      </QueryState>
      <CreateRedemptionCodesModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(codes) => {
          setOffset(0);
          setCreated(codes);
        }}
      />
      <RedemptionCodesCreatedModal codes={created} onClose={() => setCreated(undefined)} />
    </>
  );
}
