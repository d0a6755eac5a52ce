import { Button, Group, NativeSelect, Paper, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY_LOG_FILTERS, type LogFilters } from './log-filters';

export interface FilterOption {
  value: string;
  label: string;
}

const STATUS_CODES = ['400', '401', '403', '404', '413', '429', '500', '502', '503', '504', '0'];

/**
 * The filters of the Logs page; they apply on Apply (or Enter), so typing does not fire a request
 * per key. User and channel choices are shown to admins only.
 */
export function LogFiltersForm({
  value,
  onApply,
  users,
  keys,
  channels,
}: {
  value: LogFilters;
  onApply: (filters: LogFilters) => void;
  users?: readonly FilterOption[];
  keys: readonly FilterOption[];
  channels?: readonly FilterOption[];
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<LogFilters>(value);
  const set = (name: keyof LogFilters) => (event: { currentTarget: { value: string } }) => {
    const text = event.currentTarget.value;
    setDraft((previous) => ({ ...previous, [name]: text }));
  };
  const any = { value: '', label: t('logs.any') };
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h5" mb="xs">
        {t('logs.filters')}
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onApply(draft);
        }}
      >
        <div className="filter-grid">
          {users && (
            <NativeSelect
              label={t('logs.user')}
              data={[any, ...users]}
              value={draft.userId}
              onChange={set('userId')}
            />
          )}
          <NativeSelect
            label={t('logs.key')}
            data={[any, ...keys]}
            value={draft.keyId}
            onChange={set('keyId')}
          />
          <TextInput label={t('logs.model')} value={draft.model} onChange={set('model')} />
          {channels && (
            <NativeSelect
              label={t('logs.channel')}
              data={[any, ...channels]}
              value={draft.channelId}
              onChange={set('channelId')}
            />
          )}
          <NativeSelect
            label={t('logs.status')}
            data={[
              any,
              { value: 'ok', label: t('logs.statusOk') },
              { value: 'error', label: t('logs.statusError') },
              ...STATUS_CODES.map((code) => ({ value: code, label: code })),
            ]}
            value={draft.status}
            onChange={set('status')}
          />
          <TextInput type="datetime-local" label={t('logs.from')} value={draft.from} onChange={set('from')} />
          <TextInput type="datetime-local" label={t('logs.to')} value={draft.to} onChange={set('to')} />
        </div>
        <Group mt="sm" gap="xs">
          <Button type="submit">{t('common.apply')}</Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft(EMPTY_LOG_FILTERS);
              onApply(EMPTY_LOG_FILTERS);
            }}
          >
            {t('common.reset')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
