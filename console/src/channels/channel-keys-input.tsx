import { Button, Checkbox, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChannelTypeSpec } from './channel-types';

export interface ChannelKeysInputProps {
  spec: ChannelTypeSpec;
  keys: string[];
  onChange: (keys: string[]) => void;
  /** Editing: the masked stored keys, kept unless the admin chooses to replace them. */
  storedKeys?: readonly string[];
  replaceKeys: boolean;
  onReplaceKeysChange: (replace: boolean) => void;
  error?: string | undefined;
}

/** Upstream keys, one field each (a text area for whole JSON keys), used in rotation. */
export function ChannelKeysInput(props: ChannelKeysInputProps) {
  const { spec, keys, onChange, storedKeys, replaceKeys, onReplaceKeysChange, error } = props;
  const { t } = useTranslation();
  const editing = storedKeys !== undefined;
  const hint = `${t(`channelKeyHints.${spec.keyHint}`)}. ${spec.keyOptional ? t('channels.keysOptional') : ''}`;
  const setKey = (index: number, value: string) =>
    onChange(keys.map((key, position) => (position === index ? value : key)));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('channels.keys')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('channels.keysHint')}
      </Text>
      {editing && (
        <>
          <Text size="sm" className="break-anywhere">
            {t('channels.storedKeys', {
              keys: storedKeys.length > 0 ? storedKeys.join(', ') : t('common.none'),
            })}
          </Text>
          <Checkbox
            label={t('channels.replaceKeys')}
            checked={replaceKeys}
            onChange={(event) => {
              onReplaceKeysChange(event.currentTarget.checked);
              if (event.currentTarget.checked && keys.length === 0) onChange(['']);
            }}
          />
        </>
      )}
      {(!editing || replaceKeys) &&
        keys.map((key, index) => {
          const label = t('channels.key', { number: index + 1 });
          const field = spec.multilineKeys ? (
            <Textarea
              label={label}
              description={hint}
              value={key}
              onChange={(event) => setKey(index, event.currentTarget.value)}
              autosize
              minRows={3}
              maxRows={10}
              spellCheck={false}
              className="grow"
            />
          ) : (
            <TextInput
              type="password"
              label={label}
              description={hint}
              value={key}
              onChange={(event) => setKey(index, event.currentTarget.value)}
              autoComplete="off"
              className="grow"
            />
          );
          return (
            <Group key={index} align="flex-end" gap="xs" wrap="nowrap">
              {field}
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => onChange(keys.filter((_, position) => position !== index))}
              >
                {t('channels.removeKey', { number: index + 1 })}
              </Button>
            </Group>
          );
        })}
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      {(!editing || replaceKeys) && (
        <Group>
          <Button variant="light" size="xs" onClick={() => onChange([...keys, ''])}>
            {t('channels.addKey')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
