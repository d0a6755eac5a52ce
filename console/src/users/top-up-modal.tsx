import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import type { User } from '../api/types';
import { topUpUser } from '../api/users-api';
import { notifySuccess } from '../components/notify';
import { useDialogSave } from '../components/use-dialog-save';
import { formatUsd } from '../format/format-usd';
import { TopUpForm } from './top-up-form';

export function TopUpModal({ user, onClose }: { user: User | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { mutation: topUp, close } = useDialogSave({
    save: ({ id, amount }: { id: number; amount: number }) => topUpUser(id, amount),
    invalidates: queryKeys.users,
    onSaved: (updated) => notifySuccess(t('users.toppedUp', { balance: formatUsd(updated.balance) })),
    onClose,
  });
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
