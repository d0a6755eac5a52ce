import { useTranslation } from 'react-i18next';
import { MODEL_CAPABILITIES, type ModelCapability } from '../api/types';

function isModelCapability(value: string): value is ModelCapability {
  return (MODEL_CAPABILITIES as readonly string[]).includes(value);
}

/** A capability's name in the console's language; one this console does not know, as the gateway spells it. */
export function useCapabilityLabel(): (capability: string) => string {
  const { t } = useTranslation();
  return (capability) =>
    isModelCapability(capability) ? t(`modelMetadata.capabilityNames.${capability}`) : capability;
}
