import { useTranslation } from 'react-i18next';
import { VIRTUAL_MODEL_STRATEGIES, type VirtualModelStrategy } from '../api/types';

export function isVirtualModelStrategy(value: string): value is VirtualModelStrategy {
  return (VIRTUAL_MODEL_STRATEGIES as readonly string[]).includes(value);
}

/** A strategy's name in the console's language; one this console does not know, as the gateway spells it. */
export function useStrategyLabel(): (strategy: string) => string {
  const { t } = useTranslation();
  return (strategy) =>
    isVirtualModelStrategy(strategy) ? t(`virtualModels.strategies.${strategy}`) : strategy;
}
