import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors/gateway-error.js';
import { parseModelReference, reasoningEfforts } from '../../src/relay/model-modifier.js';

function failure(requested: string) {
  try {
    parseModelReference(requested);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { name: error.errorName, status: error.status, code: error.code, message: error.message };
  }
  throw new Error(`accepted: ${requested}`);
}

describe('parseModelReference (admin-api section 4)', () => {
  it('a model without a modifier is unchanged', () => {
    expect(parseModelReference('gpt-4o')).toEqual({ model: 'gpt-4o', effort: undefined });
    expect(parseModelReference('models/gemini-2.5-pro')).toEqual({
      model: 'models/gemini-2.5-pro',
      effort: undefined,
    });
  });

  it('accepts <model>@<effort> and <model>@effort=<effort> for every effort', () => {
    expect(reasoningEfforts).toEqual(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
    for (const effort of reasoningEfforts) {
      expect(parseModelReference(`o3@${effort}`)).toEqual({ model: 'o3', effort });
      expect(parseModelReference(`o3@effort=${effort}`)).toEqual({ model: 'o3', effort });
    }
  });

  it('refuses any other modifier name', () => {
    expect(failure('m@foo=high')).toEqual({
      name: 'unsupported_model_modifier',
      status: 400,
      code: 'convert_request_failed',
      message: 'unsupported model modifier "foo"',
    });
    expect(failure('m@=high').message).toBe('unsupported model modifier ""');
    expect(failure('m@Effort=high').message).toBe('unsupported model modifier "Effort"');
  });

  it('refuses any other effort value', () => {
    expect(failure('m@extreme')).toEqual({
      name: 'invalid_effort_modifier',
      status: 400,
      code: 'convert_request_failed',
      message: 'invalid effort modifier value "extreme"',
    });
    expect(failure('m@effort=extreme').message).toBe('invalid effort modifier value "extreme"');
    expect(failure('m@').message).toBe('invalid effort modifier value ""');
    expect(failure('m@HIGH').message).toBe('invalid effort modifier value "HIGH"');
    expect(failure('m@high@low').message).toBe('invalid effort modifier value "high@low"');
  });
});
