import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BudgetUsage } from '../api/types';
import { BudgetUsageBar } from './budget-usage-bar';
import { budgetUsageBars } from './budget-usage-bars';

/** Each window's limits as bars, in the order the owner's budgets are listed. */
export function BudgetUsageList({ windows }: { windows: readonly BudgetUsage[] }) {
  const { t, i18n } = useTranslation();
  const bars = windows.flatMap((usage) => budgetUsageBars(usage, { t, language: i18n.language }));
  if (bars.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('budgets.noBudgets')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {bars.map((bar, index) => (
        <BudgetUsageBar key={index} bar={bar} />
      ))}
    </Stack>
  );
}
