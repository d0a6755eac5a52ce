import { Modal } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { User } from '../api/types';
import { topUpUser } from '../api/users-api';
import { notifySuccess } from '../components/notify';
import { formatUsd } from '../format/format-usd';
import { TopUpForm } from './top-up-form';

export function TopUpModal({ user, onClose }: { user: User | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const topUp = useMutation({
    mutationFn: ({ id, amount }: { id: number; amount: number }) => topUpUser(id, amount),
    onSuccess: (updated) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
      notifySuccess(t('users.toppedUp', { balance: formatUsd(updated.balance) }));
      close();
    },
  });
  const close = () => {
    topUp.reset();
    onClose();
  };
  return (
    <Modal
      opened={user !== undefined}
      onClose={close}
      title={t('users.topUpTitle', { name: user?.username ?? '' })}
    >
      {user && (
        <TopUpForm
          pending={topUp.isPending}
          error={topUp.error}
          onSubmit={(amount) => topUp.mutate({ id: user.id, amount })}
          onCancel={close}
        />
      )}
    </Modal>
  );
}
