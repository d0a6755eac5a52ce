import { Button, Fieldset, Group, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { BudgetPeriod } from '../api/types';
import { ListInput } from '../components/list-input';
import { BUDGET_PERIODS, type BudgetFormRow } from './budget-form-row';
import { MAX_SESSION_HOURS, type BudgetRowField } from './validate-budget-rows';

function isBudgetPeriod(value: string): value is BudgetPeriod {
  return (BUDGET_PERIODS as readonly string[]).includes(value);
}

/** One budget: its period (and length, for a session window), its limits, models and alerts. */
export function BudgetRowFields({
  number,
  row,
  errors,
  onChange,
  onRemove,
}: {
  /** Counted from 1, as the legend shows it. */
  number: number;
  row: BudgetFormRow;
  errors: Partial<Record<BudgetRowField, FormErrors[string]>>;
  onChange: (row: BudgetFormRow) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const set = <Field extends keyof BudgetFormRow>(field: Field, value: BudgetFormRow[Field]) =>
    onChange({ ...row, [field]: value });
  const limit = (field: 'usd' | 'tokens' | 'requests') => ({
    label: t(`budgets.${field}`),
    value: row[field],
    onChange: (value: number | string) => set(field, value),
    error: errors[field],
    min: 0,
    allowNegative: false,
    allowDecimal: field === 'usd',
    decimalScale: field === 'usd' ? 9 : 0,
    thousandSeparator: false,
  });
  return (
    <Fieldset legend={t('budgets.budget', { number })} variant="filled" p="sm">
      <Stack gap="xs">
        <Group grow align="flex-start">
          <NativeSelect
            label={t('budgets.period')}
            description={t('budgets.periodHint')}
            data={BUDGET_PERIODS.map((period) => ({ value: period, label: t(`budgets.periods.${period}`) }))}
            value={row.period}
            onChange={(event) => {
              const period = event.currentTarget.value;
              if (isBudgetPeriod(period)) set('period', period);
            }}
          />
          {row.period === 'hours' && (
            <NumberInput
              label={t('budgets.hours')}
              description={t('budgets.hoursHint')}
              required
              min={1}
              max={MAX_SESSION_HOURS}
              // Out of range is said, not silently changed to the nearest length.
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator={false}
              value={row.hours}
              onChange={(value) => set('hours', value)}
              error={errors.hours}
            />
          )}
        </Group>
        <Group grow align="flex-start">
          <NumberInput {...limit('usd')} />
          <NumberInput {...limit('tokens')} />
          <NumberInput {...limit('requests')} />
        </Group>
        {errors.limits ? (
          <Text size="xs" c="red" role="alert">
            {errors.limits}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            {t('budgets.limitsHint')}
          </Text>
        )}
        <ListInput
          label={t('budgets.models')}
          description={t('budgets.modelsHint')}
          value={row.models}
          onChange={(models) => set('models', models)}
        />
        <ListInput
          label={t('budgets.alertAt')}
          description={t('budgets.alertAtHint')}
          value={row.alertAt}
          onChange={(alertAt) => set('alertAt', alertAt)}
          error={errors.alertAt}
        />
        <Group justify="flex-end">
          <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
            {t('budgets.remove', { number })}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
