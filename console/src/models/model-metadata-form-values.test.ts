import { describe, expect, it } from 'vitest';
import type { ModelMetadata } from '../api/types';
import {
  capabilityChoices,
  formValuesToModelMetadataFields,
  modelMetadataToFormValues,
} from './model-metadata-form-values';
import { validateModelMetadata } from './validate-model-metadata';

const stored: ModelMetadata = {
  model: 'openai/gpt-4o',
  context_window: 128000,
  max_output_tokens: 16384,
  capabilities: ['vision', 'tools'],
  managed: 'api',
};

describe('model metadata form values', () => {
  it('starts a model with no metadata as unknown in every member, and sends it back as nulls', () => {
    const values = modelMetadataToFormValues();
    expect(values).toEqual({
      contextWindow: '',
      maxOutputTokens: '',
      capabilitiesState: 'unknown',
      capabilities: [],
    });
    expect(formValuesToModelMetadataFields(values)).toEqual({
      context_window: null,
      max_output_tokens: null,
      capabilities: null,
    });
  });

  it('reads stored metadata back unchanged, capabilities in the spec’s order', () => {
    const values = modelMetadataToFormValues(stored);
    expect(values.capabilitiesState).toBe('known');
    expect(formValuesToModelMetadataFields(values)).toEqual({
      context_window: 128000,
      max_output_tokens: 16384,
      capabilities: ['tools', 'vision'],
    });
  });

  it('tells "known to have none" ([]) from "unknown" (null)', () => {
    const none = { ...modelMetadataToFormValues(stored), capabilities: [] };
    expect(formValuesToModelMetadataFields(none).capabilities).toEqual([]);
    const unknown = { ...modelMetadataToFormValues(stored), capabilitiesState: 'unknown' as const };
    expect(formValuesToModelMetadataFields(unknown).capabilities).toBeNull();
  });

  it('keeps a capability this console does not know, after the known ones', () => {
    const values = modelMetadataToFormValues({ ...stored, capabilities: ['pdf_input', 'audio'] });
    expect(capabilityChoices(values.capabilities)).toEqual([
      'tools',
      'vision',
      'json_schema',
      'reasoning',
      'audio',
      'pdf_input',
    ]);
    expect(formValuesToModelMetadataFields(values).capabilities).toEqual(['audio', 'pdf_input']);
  });
});

describe('validateModelMetadata', () => {
  const empty = modelMetadataToFormValues();

  it('accepts unknown members and whole positive token counts', () => {
    expect(validateModelMetadata(empty)).toEqual([]);
    expect(validateModelMetadata(modelMetadataToFormValues(stored))).toEqual([]);
    expect(validateModelMetadata({ ...empty, maxOutputTokens: 8192 })).toEqual([]);
  });

  it('refuses counts below 1 or with a fraction', () => {
    expect(validateModelMetadata({ ...empty, contextWindow: 0, maxOutputTokens: 1.5 })).toEqual([
      { field: 'contextWindow', problem: 'wholeAtLeast', min: 1 },
      { field: 'maxOutputTokens', problem: 'wholeAtLeast', min: 1 },
    ]);
  });

  it('refuses an output cap above the context window', () => {
    expect(validateModelMetadata({ ...empty, contextWindow: 8192, maxOutputTokens: 8193 })).toEqual([
      { field: 'maxOutputTokens', problem: 'aboveContextWindow' },
    ]);
    expect(validateModelMetadata({ ...empty, contextWindow: 8192, maxOutputTokens: 8192 })).toEqual([]);
  });
});
