import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LOG_EXPORT_FORMATS, logExportFileName, logExportUrl, type LogExportFormat } from './log-export';
import type { LogFilters } from './log-filters';

/** "Export": downloads every record the applied filters match, as JSON Lines or CSV. */
export function LogExportMenu({ filters }: { filters: LogFilters }) {
  const { t } = useTranslation();
  const label: Record<LogExportFormat, string> = {
    jsonl: t('logs.exportJsonl'),
    csv: t('logs.exportCsv'),
  };
  return (
    <Menu position="bottom-end" shadow="md">
      <Menu.Target>
        <Button variant="default" size="xs">
          {t('logs.export')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('logs.exportNote')}</Menu.Label>
        {LOG_EXPORT_FORMATS.map((format) => (
          <Menu.Item
            key={format}
            component="a"
            href={logExportUrl(filters, format)}
            download={logExportFileName(format)}
          >
            {label[format]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
