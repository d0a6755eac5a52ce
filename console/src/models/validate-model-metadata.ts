import type { ModelMetadataFormValues } from './model-metadata-form-values';

export type ModelMetadataProblem =
  | { field: 'contextWindow' | 'maxOutputTokens'; problem: 'wholeAtLeast'; min: number }
  | { field: 'maxOutputTokens'; problem: 'aboveContextWindow' };

function isWholeAtLeast(value: number | string, min: number): boolean {
  const number = Number(value);
  return Number.isInteger(number) && number >= min;
}

/**
 * What the metadata form holds that cannot be a model's: token counts that are not whole and
 * positive, and an output cap larger than the whole context window. Empty fields are unknown, never
 * a problem.
 */
export function validateModelMetadata(values: ModelMetadataFormValues): ModelMetadataProblem[] {
  const problems: ModelMetadataProblem[] = [];
  for (const field of ['contextWindow', 'maxOutputTokens'] as const) {
    if (values[field] !== '' && !isWholeAtLeast(values[field], 1)) {
      problems.push({ field, problem: 'wholeAtLeast', min: 1 });
    }
  }
  if (
    problems.length === 0 &&
    values.contextWindow !== '' &&
    values.maxOutputTokens !== '' &&
    Number(values.maxOutputTokens) > Number(values.contextWindow)
  ) {
    problems.push({ field: 'maxOutputTokens', problem: 'aboveContextWindow' });
  }
  return problems;
}
