import { Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChannelTypeSpec } from './channel-types';

/** The type's own settings (`config`), one field each; an empty one means the gateway's default. */
export function ChannelConfigFields({
  spec,
  values,
  errors,
  onChange,
}: {
  spec: ChannelTypeSpec;
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  onChange: (name: string, value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('channels.config')}
      </Text>
      {spec.config.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('channelConfig.none')}
        </Text>
      )}
      {spec.config.map((field) => (
        <TextInput
          key={field.name}
          label={t(`channelConfig.${field.name}`)}
          description={
            field.defaultValue === undefined
              ? t(`channelConfig.${field.hint}`)
              : `${t(`channelConfig.${field.hint}`)} ${t('common.default', { value: field.defaultValue })}`
          }
          placeholder={field.placeholder}
          required={field.required}
          value={values[field.name] ?? ''}
          error={errors[field.name]}
          onChange={(event) => onChange(field.name, event.currentTarget.value)}
        />
      ))}
    </Stack>
  );
}
