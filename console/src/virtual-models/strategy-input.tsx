import { Radio, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { VIRTUAL_MODEL_STRATEGIES } from '../api/types';
import { isVirtualModelStrategy, useStrategyLabel } from './use-strategy-label';

/** How a virtual model orders its targets (admin-api section 11.2), each choice with what it does. */
export function StrategyInput({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (strategy: string) => void;
  error?: ReactNode;
}) {
  const { t } = useTranslation();
  const strategyLabel = useStrategyLabel();
  // A newer gateway's strategy stays chosen and shown, so opening the form changes nothing.
  const choices: string[] = [...VIRTUAL_MODEL_STRATEGIES];
  if (!choices.includes(value)) choices.push(value);
  return (
    <Radio.Group label={t('virtualModels.strategy')} value={value} onChange={onChange} error={error}>
      <Stack gap={6} mt={6}>
        {choices.map((strategy) => (
          <Radio
            key={strategy}
            value={strategy}
            label={strategyLabel(strategy)}
            {...(isVirtualModelStrategy(strategy)
              ? { description: t(`virtualModels.strategyHints.${strategy}`) }
              : {})}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
