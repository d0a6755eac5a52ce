import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { updateSettings } from '../api/settings-api';
import type { Settings } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { notifySuccess } from '../components/notify';
import { SettingInput } from './setting-input';
import { settingsChanges, type SettingDraft } from './settings-changes';
import { WebhookTestButton } from './webhook-test-button';

/** The test event button follows the last webhook setting. */
const WEBHOOK_TEST_AFTER = 'webhook_secret';

/** The settings as the gateway has them, edited in place; saving sends only the changed ones. */
export function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
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
        const changes = settingsChanges(settings, drafts);
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
