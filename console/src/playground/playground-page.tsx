import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { isRootAdmin } from '../auth/is-root-admin';
import { useCurrentUser } from '../auth/use-current-user';
import { ErrorAlert } from '../components/error-alert';
import { PageHeader } from '../components/page-header';
import { formatUsd } from '../format/format-usd';
import { useOwnAccount } from '../me/use-own-account';
import { ConversationView } from './conversation-view';
import { findUsageRecord } from './find-usage-record';
import { PLAYGROUND_KEY_LIFETIME_S, PLAYGROUND_KEY_NAME } from './playground-key';
import { QuestionForm } from './question-form';
import { useChatModels } from './use-chat-models';
import { usePlaygroundChat } from './use-playground-chat';
import { usePlaygroundKey } from './use-playground-key';

/**
 * Chat with a model the user may use (admin-api section 15), through the gateway's own relay with
 * a key of the user's, so limits and billing apply as to any request.
 */
export function PlaygroundPage() {
  const { t } = useTranslation();
  const user = useCurrentUser().data;
  return (
    <>
      <PageHeader
        title={t('nav.playground')}
        description={t('playground.description', {
          name: PLAYGROUND_KEY_NAME,
          hours: PLAYGROUND_KEY_LIFETIME_S / 3600,
        })}
      />
      {!user || isRootAdmin(user) || user.id === null ? (
        <Alert color="yellow" role="status">
          {t('playground.rootAdmin')}
        </Alert>
      ) : (
        <Playground userId={user.id} />
      )}
    </>
  );
}

function Playground({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const playgroundKey = usePlaygroundKey(userId);
  const models = useChatModels({ userId, obtainKey: playgroundKey.obtain, forgetKey: playgroundKey.forget });
  const account = useOwnAccount();
  const [model, setModel] = useState<string | null>(null);
  const [system, setSystem] = useState('');
  const chat = usePlaygroundChat({
    obtainKey: playgroundKey.obtain,
    forgetKey: playgroundKey.forget,
    findRecord: findUsageRecord,
    onCharged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.ownAccount, exact: true }),
  });
  const chosen = model ?? models.data?.[0] ?? null;
  return (
    <Stack gap="md">
      {models.isError && <ErrorAlert error={models.error} onRetry={() => void models.refetch()} />}
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group align="flex-end" justify="space-between" gap="sm">
            <NativeSelect
              label={t('playground.model')}
              data={models.data ?? (models.isPending ? [t('app.loading')] : [])}
              value={chosen ?? ''}
              onChange={(event) => setModel(event.currentTarget.value)}
              disabled={chat.streaming || !models.isSuccess || models.data.length === 0}
              miw={260}
            />
            <Group gap="sm" align="center">
              <Text size="sm" aria-live="polite" data-testid="playground-balance">
                {t('playground.balance', {
                  balance: account.data ? formatUsd(account.data.balance ?? 0) : '…',
                })}
              </Text>
              <Button
                variant="default"
                disabled={chat.streaming || chat.entries.length === 0}
                onClick={chat.clear}
              >
                {t('playground.clear')}
              </Button>
            </Group>
          </Group>
          {models.isSuccess && models.data.length === 0 && (
            <Alert color="yellow" role="status">
              {t('playground.noModels')}
            </Alert>
          )}
          <Textarea
            label={t('playground.system')}
            description={t('common.optional')}
            autosize
            minRows={1}
            maxRows={6}
            value={system}
            onChange={(event) => setSystem(event.currentTarget.value)}
            disabled={chat.streaming}
          />
        </Stack>
      </Paper>
      <ConversationView entries={chat.entries} />
      <QuestionForm
        disabled={chosen === null}
        streaming={chat.streaming}
        onSend={(text) => {
          if (chosen !== null) void chat.send({ model: chosen, system, text });
        }}
        onStop={chat.stop}
      />
    </Stack>
  );
}
