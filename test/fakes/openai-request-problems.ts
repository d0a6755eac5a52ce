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

/**
 * What strict mode (`strict: true` on a `json_schema` response format or a function) demands of a
 * schema (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): every
 * object says `additionalProperties: false` and lists every property in `required`. `subject`
 * names the schema as OpenAI does: `response_format 'answer'`, `function 'get_weather'`. The
 * context is the path to the object, written as a Python tuple, as in OpenAI's messages.
 */
export function checkStrictSchema(
  schema: unknown,
  where: { subject: string; param: string | null; code: string | null },
): RequestProblem | undefined {
  const refuse = (context: readonly (string | number)[], rule: string): RequestProblem => ({
    message: `Invalid schema for ${where.subject}: In context=${pythonTuple(context)}, ${rule}`,
    param: where.param,
    code: where.code,
  });
  const visit = (node: unknown, context: (string | number)[]): RequestProblem | undefined => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    const record = node as Record<string, unknown>;
    const properties =
      typeof record.properties === 'object' && record.properties !== null
        ? (record.properties as Record<string, unknown>)
        : undefined;
    if (record.type === 'object' || properties) {
      if (record.additionalProperties !== false)
        return refuse(context, "'additionalProperties' is required to be supplied and to be false.");
      const required = Array.isArray(record.required) ? record.required : [];
      const missingKey = Object.keys(properties ?? {}).find((key) => !required.includes(key));
      if (missingKey !== undefined)
        return refuse(
          context,
          `'required' is required to be supplied and to be an array including every key in properties. Missing '${missingKey}'.`,
        );
    }
    for (const [key, child] of Object.entries(properties ?? {})) {
      const problem = visit(child, [...context, 'properties', key]);
      if (problem) return problem;
    }
    const problem = visit(record.items, [...context, 'items']);
    if (problem) return problem;
    for (const keyword of ['anyOf', 'allOf'] as const) {
      const branches = Array.isArray(record[keyword]) ? (record[keyword] as unknown[]) : [];
      for (const [index, branch] of branches.entries()) {
        const inBranch = visit(branch, [...context, keyword, index]);
        if (inBranch) return inBranch;
      }
    }
    for (const keyword of ['$defs', 'definitions'] as const) {
      const definitions = record[keyword];
      if (typeof definitions !== 'object' || definitions === null) continue;
      for (const [name, definition] of Object.entries(definitions)) {
        const inDefinition = visit(definition, [...context, keyword, name]);
        if (inDefinition) return inDefinition;
      }
    }
    return undefined;
  };
  return visit(schema, []);
}

/** `()`, `('items',)`, `('properties', 'a')`: Python's repr of the tuple. */
function pythonTuple(items: readonly (string | number)[]): string {
  const written = items.map((item) => (typeof item === 'number' ? String(item) : `'${item}'`));
  return written.length === 1 ? `(${written[0]},)` : `(${written.join(', ')})`;
}

/** A member the endpoint does not take at all. */
export function unknownParameter(param: string): RequestProblem {
  return { message: `Unknown parameter: '${param}'.`, param, code: 'unknown_parameter' };
}

/** The first member of `body` outside `known`. */
export function checkKnownMembers(
  body: Record<string, unknown>,
  known: ReadonlySet<string>,
): RequestProblem | undefined {
  const unknown = Object.keys(body).find((name) => !known.has(name));
  return unknown === undefined ? undefined : unknownParameter(unknown);
}
