import type { RequestProblem } from './fake-upstream.js';

/**
 * OpenAI's wording for the refusals both of its APIs share
 * (https://platform.openai.com/docs/guides/error-codes): `param` names the field, `code` the kind.
 */
export function missing(param: string): RequestProblem {
  return { message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' };
}

export function invalidType(param: string, expected: string, value: unknown): RequestProblem {
  return {
    message: `Invalid type for '${param}': expected ${expected}, but got ${describe(value)} instead.`,
    param,
    code: 'invalid_type',
  };
}

export function invalidValue(param: string, value: unknown, supported: readonly string[]): RequestProblem {
  const listed = supported.map((item) => `'${item}'`);
  const last = listed.pop();
  const choices = listed.length > 0 ? `${listed.join(', ')}, and ${last}` : last;
  return {
    message: `Invalid value: '${String(value)}'. Supported values are: ${choices}.`,
    param,
    code: 'invalid_value',
  };
}

export function emptyArray(param: string): RequestProblem {
  return {
    message: `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
    param,
    code: 'empty_array',
  };
}

/** A string field that must be present (or may be absent, with `optional`). */
export function checkString(
  value: unknown,
  param: string,
  options: { optional?: boolean } = {},
): RequestProblem | undefined {
  if (value === undefined && options.optional) return undefined;
  if (value === undefined) return missing(param);
  if (typeof value !== 'string') return invalidType(param, 'a string', value);
  return undefined;
}

/** One of the supported values, when present (or always, with `required`). */
export function checkEnum(
  value: unknown,
  param: string,
  supported: readonly string[],
  options: { required?: boolean } = {},
): RequestProblem | undefined {
  if (value === undefined || value === null) return options.required ? missing(param) : undefined;
  return supported.includes(String(value)) ? undefined : invalidValue(param, value, supported);
}

/** A number in a range, when present; `integer` also refuses fractions. */
export function checkNumber(
  value: unknown,
  param: string,
  range: { min?: number; max?: number; integer?: boolean },
): RequestProblem | undefined {
  if (value === undefined || value === null) return undefined;
  const kind = range.integer ? 'integer' : 'decimal';
  if (typeof value !== 'number' || (range.integer && !Number.isInteger(value)))
    return invalidType(param, `${range.integer ? 'an' : 'a'} ${kind}`, value);
  if (range.min !== undefined && value < range.min)
    return {
      message: `Invalid '${param}': ${kind} below minimum value. Expected a value >= ${range.min}, but got ${value} instead.`,
      param,
      code: `${kind}_below_min_value`,
    };
  if (range.max !== undefined && value > range.max)
    return {
      message: `Invalid '${param}': ${kind} above maximum value. Expected a value <= ${range.max}, but got ${value} instead.`,
      param,
      code: `${kind}_above_max_value`,
    };
  return undefined;
}

export function checkMaxLength(value: string, param: string, max: number): RequestProblem | undefined {
  if (value.length <= max) return undefined;
  return {
    message: `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${value.length} instead.`,
    param,
    code: 'string_above_max_length',
  };
}

/** Function names: "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64". */
export function checkFunctionName(name: unknown, param: string): RequestProblem | undefined {
  const wrong = checkString(name, param);
  if (wrong) return wrong;
  if (!/^[a-zA-Z0-9_-]+$/.test(name as string))
    return {
      message: `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      code: 'invalid_value',
    };
  return checkMaxLength(name as string, param, 64);
}

/**
 * A function's `parameters` is a JSON Schema object of `type: "object"`
 * (https://platform.openai.com/docs/guides/function-calling#defining-functions).
 */
export function checkParameters(
  parameters: unknown,
  param: string,
  functionName: unknown,
): RequestProblem | undefined {
  if (parameters === undefined || parameters === null) return undefined;
  if (typeof parameters !== 'object' || Array.isArray(parameters))
    return invalidType(param, 'an object', parameters);
  const schema = parameters as Record<string, unknown>;
  if (Object.keys(schema).length === 0 || schema.type === 'object') return undefined;
  return {
    message: `Invalid schema for function '${String(functionName)}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type ?? 'None')}"'.`,
    param,
    code: 'invalid_function_parameters',
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
