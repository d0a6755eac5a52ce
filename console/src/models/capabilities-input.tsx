import { Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { capabilityChoices, type CapabilitiesState } from './model-metadata-form-values';
import { useCapabilityLabel } from './use-capability-label';

/**
 * A model's capabilities with "unknown" apart from "none": unknown (null) never excludes the model,
 * known with nothing ticked (`[]`) says it has none of them (admin-api sections 11.1 and 11.3).
 */
export function CapabilitiesInput({
  state,
  checked,
  onStateChange,
  onCheckedChange,
}: {
  state: CapabilitiesState;
  checked: string[];
  onStateChange: (state: CapabilitiesState) => void;
  onCheckedChange: (checked: string[]) => void;
}) {
  const { t } = useTranslation();
  const capabilityLabel = useCapabilityLabel();
  return (
    <Stack gap="xs">
      <Radio.Group
        label={t('modelMetadata.capabilities')}
        description={t('modelMetadata.capabilitiesHint')}
        value={state}
        onChange={(value) => onStateChange(value === 'known' ? 'known' : 'unknown')}
      >
        <Stack gap={6} mt={6}>
          <Radio value="unknown" label={t('modelMetadata.capabilitiesUnknown')} />
          <Radio value="known" label={t('modelMetadata.capabilitiesKnown')} />
        </Stack>
      </Radio.Group>
      <Checkbox.Group
        label={t('modelMetadata.capabilityList')}
        value={checked}
        onChange={onCheckedChange}
        aria-disabled={state === 'unknown'}
      >
        <Group gap="sm" mt={4}>
          {capabilityChoices(checked).map((capability) => (
            <Checkbox
              key={capability}
              value={capability}
              label={capabilityLabel(capability)}
              disabled={state === 'unknown'}
            />
          ))}
        </Group>
      </Checkbox.Group>
      {state === 'known' && checked.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('modelMetadata.capabilitiesNone')}
        </Text>
      )}
    </Stack>
  );
}
