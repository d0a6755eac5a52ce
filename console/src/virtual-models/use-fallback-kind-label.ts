import { useTranslation } from 'react-i18next';
import { FALLBACK_KINDS, type FallbackKind } from '../api/types';

function isFallbackKind(value: string): value is FallbackKind {
  return (FALLBACK_KINDS as readonly string[]).includes(value);
}

/** A fallback kind's name in the console's language; one this console does not know, as the gateway spells it. */
export function useFallbackKindLabel(): (kind: string) => string {
  const { t } = useTranslation();
  return (kind) => (isFallbackKind(kind) ? t(`virtualModels.fallbackKinds.${kind}`) : kind);
}
