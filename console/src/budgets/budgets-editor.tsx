import { Button, Group, Stack, Text } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { emptyBudgetRow, type BudgetFormRow } from './budget-form-row';
import { BudgetRowFields } from './budget-row-fields';
import { MAX_BUDGETS, type BudgetRowField } from './validate-budget-rows';

const ROW_FIELDS: readonly BudgetRowField[] = ['hours', 'usd', 'tokens', 'requests', 'alertAt', 'limits'];

/**
 * The `budgets` of a key, user or group (admin-api section 10), one fieldset each. `errors` are the
 * form's, read at `<path>.<index>.<field>`.
 */
export function BudgetsEditor({
  rows,
  errors,
  path = 'budgets',
  onChange,
}: {
  rows: readonly BudgetFormRow[];
  errors: FormErrors;
  path?: string;
  onChange: (rows: BudgetFormRow[]) => void;
}) {
  const { t } = useTranslation();
  const errorsOf = (index: number) =>
    Object.fromEntries(ROW_FIELDS.map((field) => [field, errors[`${path}.${index}.${field}`]]));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('budgets.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('budgets.hint')}
      </Text>
      {rows.map((row, index) => (
        <BudgetRowFields
          key={index}
          number={index + 1}
          row={row}
          errors={errorsOf(index)}
          onChange={(changed) => onChange(rows.map((current, at) => (at === index ? changed : current)))}
          onRemove={() => onChange(rows.filter((_, at) => at !== index))}
        />
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          disabled={rows.length >= MAX_BUDGETS}
          onClick={() => onChange([...rows, emptyBudgetRow()])}
        >
          {t('budgets.add')}
        </Button>
      </Group>
    </Stack>
  );
}
