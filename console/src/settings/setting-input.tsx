import { NativeSelect, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SettingValue } from '../api/types';
import { ListInput } from '../components/list-input';
import {
  environmentVariableOf,
  isKnownSetting,
  settingBounds,
  settingKind,
  settingOptions,
} from './setting-definitions';
import type { SettingDraft } from './settings-changes';
import { useChoiceLabel } from './use-choice-label';

/**
 * One live setting: its name, what it does, its environment variable, and an input of its type;
 * with `managedNote` (the configuration file sets it) the input is turned off and the note shown.
 */
export function SettingInput({
  name,
  current,
  draft,
  onChange,
  managedNote,
}: {
  name: string;
  current: SettingValue;
  draft: SettingDraft;
  onChange: (draft: SettingDraft) => void;
  managedNote?: string | undefined;
}) {
  const { t } = useTranslation();
  const choiceLabel = useChoiceLabel();
  const known = isKnownSetting(name);
  const label = known ? t(`settings.items.${name}.label`) : name;
  const meaning = known ? t(`settings.items.${name}.meaning`) : t('settings.unknown');
  const note = managedNote !== undefined && (
    <Text span size="xs" c="violet">
      {managedNote}
    </Text>
  );
  const description = (
    <Stack gap={0} component="span">
      <span>{meaning}</span>
      <Text span size="xs" c="dimmed" ff="monospace">
        {t('settings.environment', { name: environmentVariableOf(name) })}
      </Text>
      {note}
    </Stack>
  );
  const disabled = managedNote !== undefined;
  const kind = settingKind(name, current);
  switch (kind) {
    case 'boolean':
      return (
        <Switch
          label={label}
          description={description}
          disabled={disabled}
          checked={draft === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'list':
      return (
        <ListInput
          label={label}
          description={
            <Stack gap={0} component="span">
              <span>
                {`${meaning} ${t('settings.itemsHint')} ${t('settings.environment', {
                  name: environmentVariableOf(name),
                })}`}
              </span>
              {note}
            </Stack>
          }
          disabled={disabled}
          value={Array.isArray(draft) ? draft : []}
          onChange={onChange}
        />
      );
    case 'text':
      return (
        <TextInput
          label={label}
          description={description}
          disabled={disabled}
          value={typeof draft === 'string' ? draft : ''}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'choice': {
      const selected = typeof draft === 'string' ? draft : String(current);
      const options = settingOptions(name) ?? [];
      // The gateway's own value is listed even when this console does not know it.
      const values = options.includes(selected) ? options : [...options, selected];
      return (
        <NativeSelect
          label={label}
          description={description}
          disabled={disabled}
          data={values.map((value) => ({ value, label: choiceLabel(name, value) }))}
          value={selected}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    }
    case 'integer':
    case 'number':
      return (
        <NumberInput
          label={label}
          description={description}
          disabled={disabled}
          value={typeof draft === 'number' || typeof draft === 'string' ? draft : ''}
          onChange={(number) => onChange(typeof number === 'bigint' ? Number(number) : number)}
          allowDecimal={kind === 'number'}
          decimalScale={kind === 'number' ? 9 : 0}
          {...settingBounds(name)}
          thousandSeparator={false}
        />
      );
  }
}
