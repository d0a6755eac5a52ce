import { Alert, Button, Code, Group, Modal, ScrollArea, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../components/copy-button';
import type { InviteCode } from './invite-code';

/** The only time new invite codes are shown in full (the gateway keeps only their hashes). */
export function InviteCodesCreatedModal({
  codes,
  onClose,
}: {
  codes: readonly InviteCode[] | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const text = (codes ?? []).map((code) => code.code).join('\n');
  return (
    <Modal
      opened={codes !== undefined}
      onClose={onClose}
      title={t('inviteCodes.createdTitle', { count: codes?.length ?? 0 })}
      closeOnClickOutside={false}
    >
      {codes && (
        <Stack gap="sm">
          <Alert color="yellow">{t('inviteCodes.createdWarning')}</Alert>
          <ScrollArea.Autosize mah={240}>
            <Code block className="code-block" data-testid="created-invite-codes">
              {text}
            </Code>
          </ScrollArea.Autosize>
          <Group justify="space-between">
            <CopyButton value={text} label={t('codes.copyAll')} />
            <Button variant="default" onClick={onClose}>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
