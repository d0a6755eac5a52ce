import { MODEL_CAPABILITIES, type ModelMetadata, type ModelMetadataFields } from '../api/types';

/** Whether the capabilities are known: `unknown` (null) never excludes a model, `known` with none is `[]`. */
export type CapabilitiesState = 'unknown' | 'known';

/** What the metadata form edits; numbers as the inputs hold them, '' for unknown. */
export interface ModelMetadataFormValues {
  contextWindow: number | string;
  maxOutputTokens: number | string;
  capabilitiesState: CapabilitiesState;
  /** Checked ones; kept while the state is `unknown`, so switching back loses no ticks. */
  capabilities: string[];
}

function optionalInteger(value: number | string): number | null {
  return value === '' ? null : Number(value);
}

/** Empty, for a model with no metadata: every member unknown (admin-api section 11.1). */
export function modelMetadataToFormValues(metadata?: ModelMetadata): ModelMetadataFormValues {
  return {
    contextWindow: metadata?.context_window ?? '',
    maxOutputTokens: metadata?.max_output_tokens ?? '',
    capabilitiesState: metadata?.capabilities ? 'known' : 'unknown',
    capabilities: [...(metadata?.capabilities ?? [])],
  };
}

/**
 * The checkboxes to offer: the section 11.1 capabilities, then any other the gateway already stored
 * (a newer version's), so saving never drops one silently.
 */
export function capabilityChoices(checked: readonly string[]): string[] {
  const known: readonly string[] = MODEL_CAPABILITIES;
  return [...known, ...checked.filter((capability) => !known.includes(capability))];
}

/** The `PUT` body: empty numbers and unknown capabilities as null, capabilities in the spec's order. */
export function formValuesToModelMetadataFields(values: ModelMetadataFormValues): ModelMetadataFields {
  const order = capabilityChoices(values.capabilities);
  const capabilities = order.filter((capability) => values.capabilities.includes(capability));
  return {
    context_window: optionalInteger(values.contextWindow),
    max_output_tokens: optionalInteger(values.maxOutputTokens),
    capabilities: values.capabilitiesState === 'known' ? capabilities : null,
  };
}
