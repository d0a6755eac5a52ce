import { Button, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** A Delete button that asks first, in a dialog with its own Delete button. */
export function ConfirmDeleteButton({
  name,
  pending,
  onConfirm,
  label,
}: {
  name: string;
  pending: boolean;
  onConfirm: () => void;
  label?: string;
}) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  return (
    <>
      <Button size="xs" variant="subtle" color="red" onClick={dialog.open}>
        {label ?? t('common.delete')}
      </Button>
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
