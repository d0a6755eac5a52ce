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
import { CreateInviteCodesModal } from './create-invite-codes-modal';
import type { InviteCode } from './invite-code';
import { deleteInviteCode, listInviteCodes } from './invite-codes-api';
import { InviteCodesCreatedModal } from './invite-codes-created-modal';
import { InviteCodesTable } from './invite-codes-table';

const PAGE_SIZE = 100;

/** Invite codes (admin-api section 15): what a new user needs while registration is by invite. */
export function InviteCodesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const codes = useQuery({
    queryKey: [...queryKeys.inviteCodes, offset],
    queryFn: () => listInviteCodes({ limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
  const users = useUsers();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<InviteCode[] | undefined>(undefined);
  const remove = useMutation({
    mutationFn: (code: InviteCode) => deleteInviteCode(code.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.inviteCodes });
      notifySuccess(t('common.deleted'));
    },
    onError: (error) => notifyError(t('common.error'), error),
  });
  return (
    <>
      <PageHeader
        title={t('nav.inviteCodes')}
        description={t('inviteCodes.description')}
        actions={<Button onClick={() => setCreating(true)}>{t('inviteCodes.create')}</Button>}
      />
      <QueryState query={codes}>
        {(rows) => (
          <Stack gap="sm">
            <InviteCodesTable
              codes={rows}
              users={users.data}
              deleting={remove.isPending}
              onDelete={(code) => remove.mutate(code)}
            />
            <OffsetPager offset={offset} limit={PAGE_SIZE} shown={rows.length} onChange={setOffset} />
          </Stack>
        )}
      </QueryState>
      <CreateInviteCodesModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(made) => {
          setOffset(0);
          setCreated(made);
        }}
      />
      <InviteCodesCreatedModal codes={created} onClose={() => setCreated(undefined)} />
    </>
  );
}
