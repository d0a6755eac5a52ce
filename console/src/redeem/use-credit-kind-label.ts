import { useTranslation } from 'react-i18next';
import { CREDIT_KINDS, type CreditKind } from './balance-credit';

function isCreditKind(value: string): value is CreditKind {
  return (CREDIT_KINDS as readonly string[]).includes(value);
}

/** A credit's kind in the console's language; one this console does not know, as the gateway spells it. */
export function useCreditKindLabel(): (kind: string) => string {
  const { t } = useTranslation();
  return (kind) => (isCreditKind(kind) ? t(`credits.kinds.${kind}`) : kind);
}
