import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '../api/types';
import { CopyButton } from '../components/copy-button';

/** The only time the full key is shown: right after it was created, with a copy button. */
export function KeyCreatedModal({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={apiKey !== undefined}
      onClose={onClose}
      title={t('keys.createdTitle')}
      closeOnClickOutside={false}
    >
      {apiKey && (
        <Stack gap="sm">
          <Alert color="yellow">{t('keys.createdText')}</Alert>
          <Text size="sm" fw={500} id="full-key-label">
            {t('keys.fullKey')}
          </Text>
          <Code block aria-labelledby="full-key-label" className="code-block" data-testid="full-key">
            {apiKey.key}
          </Code>
          <Group justify="space-between">
            <CopyButton value={apiKey.key} />
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
