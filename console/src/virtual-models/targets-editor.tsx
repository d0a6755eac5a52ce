import { Button, Group, Stack, Text } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { TargetRowFields, type TargetChoice } from './target-row-fields';
import { emptyTargetRow, type TargetFormRow } from './virtual-model-form-values';

/** The `targets` of a virtual model, one fieldset each; `errors` are the form's, read at `targets.<index>.<member>`. */
export function TargetsEditor({
  rows,
  choices,
  errors,
  onChange,
}: {
  rows: readonly TargetFormRow[];
  choices: readonly TargetChoice[];
  errors: FormErrors;
  onChange: (rows: TargetFormRow[]) => void;
}) {
  const { t } = useTranslation();
  const errorsOf = (index: number) => ({
    model: errors[`targets.${index}.model`],
    priority: errors[`targets.${index}.priority`],
    weight: errors[`targets.${index}.weight`],
  });
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('virtualModels.targets')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('virtualModels.targetsHint')}
      </Text>
      {rows.map((row, index) => (
        <TargetRowFields
          key={index}
          number={index + 1}
          row={row}
          choices={choices}
          errors={errorsOf(index)}
          onChange={(changed) => onChange(rows.map((current, at) => (at === index ? changed : current)))}
          onRemove={() => onChange(rows.filter((_, at) => at !== index))}
        />
      ))}
      {errors['targets'] && (
        <Text size="xs" c="red" role="alert">
          {errors['targets']}
        </Text>
      )}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...rows, emptyTargetRow()])}>
          {t('virtualModels.addTarget')}
        </Button>
      </Group>
    </Stack>
  );
}
