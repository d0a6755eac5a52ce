import type { Price, PriceFields } from '../api/types';

/** What the price form edits: the model it prices, and its `PUT` body with empty text for "not set". */
export interface PriceFormValues {
  model: string;
  input: number | string;
  output: number | string;
  cachedInput: number | string;
  cacheWrite: number | string;
  perRequest: number | string;
  inputAudio: number | string;
  outputAudio: number | string;
  perMinute: number | string;
  perMillionCharacters: number | string;
}

/** Empty, for a model not priced yet; a member the price leaves unset (null) stays empty. */
export function priceToFormValues({
  model,
  price,
}: {
  model: string | undefined;
  price: Price | undefined;
}): PriceFormValues {
  return {
    model: model ?? '',
    input: price?.input ?? '',
    output: price?.output ?? '',
    cachedInput: price?.cached_input ?? '',
    cacheWrite: price?.cache_write ?? '',
    perRequest: price?.per_request ?? '',
    inputAudio: price?.input_audio ?? '',
    outputAudio: price?.output_audio ?? '',
    perMinute: price?.per_minute ?? '',
    perMillionCharacters: price?.per_million_characters ?? '',
  };
}

/** An emptied optional member is sent as null: admin-api section 2's "not set". */
function optional(value: number | string): number | null {
  return value === '' ? null : Number(value);
}

/** The `PUT /api/prices/{model}` body (admin-api sections 2 and 14); every member is sent. */
export function formValuesToPriceFields(values: PriceFormValues): PriceFields {
  return {
    input: Number(values.input),
    output: Number(values.output),
    cached_input: optional(values.cachedInput),
    cache_write: optional(values.cacheWrite),
    per_request: optional(values.perRequest),
    input_audio: optional(values.inputAudio),
    output_audio: optional(values.outputAudio),
    per_minute: optional(values.perMinute),
    per_million_characters: optional(values.perMillionCharacters),
  };
}
