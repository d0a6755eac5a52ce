import { Alert, Button, Code, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../components/copy-button';
import { downloadTextFile } from '../components/download-text-file';
import { formatUsd } from '../format/format-usd';
import type { CreatedRedemptionCode } from './redemption-code';
import { redemptionCodesCsv, redemptionCodesFileName } from './redemption-codes-csv';

/**
 * The only time a batch's codes are shown (the gateway keeps only their hashes): in full, to copy
 * or to download as CSV, made in the page from what the gateway answered.
 */
export function RedemptionCodesCreatedModal({
  codes,
  onClose,
}: {
  codes: readonly CreatedRedemptionCode[] | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const first = codes?.[0];
  return (
    <Modal
      opened={codes !== undefined}
      onClose={onClose}
      title={t('redemptionCodes.createdTitle', { count: codes?.length ?? 0 })}
      closeOnClickOutside={false}
      size="lg"
    >
      {codes && first && (
        <Stack gap="sm">
          <Alert color="yellow">{t('redemptionCodes.createdWarning')}</Alert>
          <Text size="sm">
            {t('redemptionCodes.createdSummary', { count: codes.length, amount: formatUsd(first.amount) })}
          </Text>
          <ScrollArea.Autosize mah={240}>
            <Code block className="code-block" data-testid="created-redemption-codes">
              {codes.map((code) => code.code).join('\n')}
            </Code>
          </ScrollArea.Autosize>
          <Group justify="space-between">
            <Group gap="xs">
              <Button
                size="xs"
                onClick={() =>
                  downloadTextFile({
                    fileName: redemptionCodesFileName(codes),
                    text: redemptionCodesCsv(codes),
                    mediaType: 'text/csv;charset=utf-8',
                  })
                }
              >
                {t('redemptionCodes.downloadCsv')}
              </Button>
              <CopyButton value={codes.map((code) => code.code).join('\n')} label={t('codes.copyAll')} />
            </Group>
            <Button variant="default" onClick={onClose}>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
