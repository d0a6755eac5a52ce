import { Button, Fieldset, Group, NativeSelect, NumberInput } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_TARGET_PRIORITY,
  DEFAULT_TARGET_WEIGHT,
  type TargetFormRow,
} from './virtual-model-form-values';

/** A model a target may name: served by a channel; an unpriced one is skipped when routing. */
export interface TargetChoice {
  model: string;
  priced: boolean;
}

/** One target of a virtual model: a model the channels serve, its priority and its weight. */
export function TargetRowFields({
  number,
  row,
  choices,
  errors,
  onChange,
  onRemove,
}: {
  /** Counted from 1, as the legend shows it. */
  number: number;
  row: TargetFormRow;
  choices: readonly TargetChoice[];
  errors: Partial<Record<keyof TargetFormRow, FormErrors[string]>>;
  onChange: (row: TargetFormRow) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  // A stored target no channel serves any more stays choosable, so opening the form changes nothing.
  const listed = row.model === '' || choices.some((choice) => choice.model === row.model);
  const options = [
    { value: '', label: t('virtualModels.chooseModel') },
    ...choices.map((choice) => ({
      value: choice.model,
      label: choice.priced ? choice.model : t('virtualModels.unpricedModel', { model: choice.model }),
    })),
    ...(listed ? [] : [{ value: row.model, label: t('virtualModels.unservedModel', { model: row.model }) }]),
  ];
  const whole = { allowDecimal: false, thousandSeparator: false } as const;
  return (
    <Fieldset legend={t('virtualModels.target', { number })} variant="filled" p="sm">
      <Group align="flex-start" gap="xs">
        <NativeSelect
          label={t('virtualModels.targetModel')}
          required
          data={options}
          value={row.model}
          onChange={(event) => onChange({ ...row, model: event.currentTarget.value })}
          error={errors.model}
          className="grow"
        />
        <NumberInput
          label={t('virtualModels.priority')}
          description={t('common.default', { value: DEFAULT_TARGET_PRIORITY })}
          {...whole}
          value={row.priority}
          onChange={(priority) => onChange({ ...row, priority })}
          error={errors.priority}
          w={130}
        />
        <NumberInput
          label={t('virtualModels.weight')}
          description={t('common.default', { value: DEFAULT_TARGET_WEIGHT })}
          {...whole}
          min={1}
          allowNegative={false}
          // Out of range is said, not silently changed.
          clampBehavior="none"
          value={row.weight}
          onChange={(weight) => onChange({ ...row, weight })}
          error={errors.weight}
          w={130}
        />
      </Group>
      <Group justify="flex-end" mt="xs">
        <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
          {t('virtualModels.removeTarget', { number })}
        </Button>
      </Group>
    </Fieldset>
  );
}
