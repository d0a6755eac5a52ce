import { Button, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { ButtonWithDisabledReason } from './button-with-disabled-reason';

/** A Delete button that asks first, in a dialog with its own Delete button; `disabledReason` turns it off. */
export function ConfirmDeleteButton({
  name,
  pending,
  onConfirm,
  label,
  disabledReason,
}: {
  name: string;
  pending: boolean;
  onConfirm: () => void;
  label?: string;
  disabledReason?: string | undefined;
}) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  return (
    <>
      <ButtonWithDisabledReason
        size="xs"
        variant="subtle"
        color="red"
        disabledReason={disabledReason}
        onClick={dialog.open}
      >
        {label ?? t('common.delete')}
      </ButtonWithDisabledReason>
      <Modal opened={opened} onClose={dialog.close} title={t('common.confirmDelete', { name })}>
        <Text size="sm" mb="md">
          {t('common.confirmDeleteText')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={dialog.close}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={pending}
            onClick={() => {
              onConfirm();
              dialog.close();
            }}
          >
            {label ?? t('common.delete')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
