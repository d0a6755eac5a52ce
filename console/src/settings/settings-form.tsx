import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { updateSettings } from '../api/settings-api';
import type { ConfigFile, Settings } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { notifySuccess } from '../components/notify';
import { SettingInput } from './setting-input';
import { settingsChanges, withoutSettings, type SettingDraft } from './settings-changes';
import { WebhookTestButton } from './webhook-test-button';

/** The test event button follows the last webhook setting. */
const WEBHOOK_TEST_AFTER = 'webhook_secret';

const NO_CONFIG_FILE: ConfigFile = { file: null, settings: [] };

/**
 * The settings as the gateway has them, edited in place; saving sends only the changed ones.
 * Those the configuration file sets are shown turned off, with a note naming the file, and never sent.
 */
export function SettingsForm({
  settings,
  configFile = NO_CONFIG_FILE,
}: {
  settings: Settings;
  configFile?: ConfigFile;
}) {
  const { t } = useTranslation();
  const managedNote =
    configFile.file === null ? t('managed.settingTheFile') : t('managed.setting', { file: configFile.file });
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Record<string, SettingDraft>>(() => ({ ...settings }));
  const [unchanged, setUnchanged] = useState(false);
  const save = useMutation({
    mutationFn: (changes: Settings) => updateSettings(changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings, saved);
      setDrafts({ ...saved });
      notifySuccess(t('common.saved'));
    },
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const changes = settingsChanges(withoutSettings(settings, configFile.settings), drafts);
        setUnchanged(Object.keys(changes).length === 0);
        if (Object.keys(changes).length > 0) save.mutate(changes);
      }}
    >
      <Stack gap="md">
        {Boolean(save.error) && <ErrorAlert error={save.error} />}
        <Paper withBorder p="md" radius="md">
          <Stack gap="lg">
            {Object.entries(settings).map(([name, value]) => (
              <Fragment key={name}>
                <SettingInput
                  name={name}
                  current={value}
                  draft={drafts[name] ?? value}
                  onChange={(draft) => setDrafts((previous) => ({ ...previous, [name]: draft }))}
                  managedNote={configFile.settings.includes(name) ? managedNote : undefined}
                />
                {name === WEBHOOK_TEST_AFTER && <WebhookTestButton />}
              </Fragment>
            ))}
          </Stack>
        </Paper>
        <Group justify="flex-end">
          {unchanged && (
            <Text size="sm" c="dimmed" role="status">
              {t('settings.unchanged')}
            </Text>
          )}
          <Button type="submit" loading={save.isPending}>
            {t('settings.saveAll')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
