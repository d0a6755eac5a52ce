import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** `max_concurrency` of a key, user or group: a whole number from 1, empty for no cap. */
export function MaxConcurrencyInput(
  props: Pick<NumberInputProps, 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error' | 'className'>,
) {
  const { t } = useTranslation();
  return (
    <NumberInput
      label={t('budgets.maxConcurrency')}
      description={t('budgets.maxConcurrencyHint')}
      min={1}
      allowDecimal={false}
      allowNegative={false}
      thousandSeparator={false}
      {...props}
    />
  );
}
