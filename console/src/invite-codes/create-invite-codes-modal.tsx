import { Button, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { MAX_CODES_PER_BATCH } from '../api/code-batch-limit';
import { queryKeys } from '../api/query-keys';
import { ErrorAlert } from '../components/error-alert';
import { useDialogSave } from '../components/use-dialog-save';
import type { InviteCode } from './invite-code';
import { createInviteCodes } from './invite-codes-api';

/** How many new invite codes; the codes made are handed to `onCreated`, to be shown once. */
export function CreateInviteCodesModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (codes: InviteCode[]) => void;
}) {
  const { t } = useTranslation();
  const { mutation: create, close } = useDialogSave({
    save: createInviteCodes,
    invalidates: queryKeys.inviteCodes,
    onSaved: onCreated,
    onClose,
  });
  const form = useForm<{ count: number | string }>({
    initialValues: { count: 1 },
    validate: {
      count: (value) => {
        const count = Number(value);
        return value === '' || !Number.isInteger(count) || count < 1 || count > MAX_CODES_PER_BATCH
          ? t('codes.countRange', { max: MAX_CODES_PER_BATCH })
          : null;
      },
    },
  });
  const closeAndReset = () => {
    form.reset();
    close();
  };
  return (
    <Modal opened={opened} onClose={closeAndReset} title={t('inviteCodes.createTitle')}>
      <form noValidate onSubmit={form.onSubmit((values) => create.mutate(Number(values.count)))}>
        <Stack gap="sm">
          <NumberInput
            label={t('inviteCodes.count')}
            description={t('codes.countHint', { max: MAX_CODES_PER_BATCH })}
            required
            min={1}
            max={MAX_CODES_PER_BATCH}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator={false}
            data-autofocus
            {...form.getInputProps('count')}
          />
          {Boolean(create.error) && <ErrorAlert error={create.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={closeAndReset}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('inviteCodes.createSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
