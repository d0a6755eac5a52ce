import { isRecord, type RequestProblem } from './fake-upstream.js';

/**
 * Gemini's wording (https://ai.google.dev/gemini-api/docs/troubleshooting): a request field that
 * breaks a rule is named by its proto path; a body that does not parse into the proto is named by
 * the JSON it was given.
 */
export function fieldViolation(path: string, description: string): RequestProblem {
  return { message: `* GenerateContentRequest.${path}: ${description}\n` };
}

export function invalidValue(path: string, kind: string, value: unknown): RequestProblem {
  return { message: `Invalid value at '${path}' (${kind}), ${JSON.stringify(value)}` };
}

/** Protobuf JSON takes each field by its camelCase or its snake_case name, and nothing else. */
export function checkKnownFields(
  value: Record<string, unknown>,
  known: readonly string[],
  path?: string,
): RequestProblem | undefined {
  const unknown = Object.keys(value).find((key) => !known.includes(toCamelCase(key)));
  if (unknown === undefined) return undefined;
  const where = path === undefined ? '' : ` at '${path}'`;
  return { message: `Invalid JSON payload received. Unknown name "${unknown}"${where}: Cannot find field.` };
}

/** A proto field of a scalar type: numbers, integers (int32 takes no fraction), booleans, strings. */
export function checkScalar(
  value: unknown,
  path: string,
  type: 'TYPE_FLOAT' | 'TYPE_INT32' | 'TYPE_BOOL' | 'TYPE_STRING',
): RequestProblem | undefined {
  if (value === undefined || value === null) return undefined;
  const fits =
    type === 'TYPE_FLOAT'
      ? typeof value === 'number'
      : type === 'TYPE_INT32'
        ? typeof value === 'number' && Number.isInteger(value)
        : type === 'TYPE_BOOL'
          ? typeof value === 'boolean'
          : typeof value === 'string';
  return fits ? undefined : invalidValue(path, type, value);
}

/** Bytes travel as base64, standard or URL-safe. */
export function checkBytes(value: unknown, path: string): RequestProblem | undefined {
  if (typeof value === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) return undefined;
  return {
    message: `Invalid value at '${path}' (TYPE_BYTES), Base64 decoding failed for ${JSON.stringify(value)}`,
  };
}

/** A `google.protobuf.Struct` field: a JSON object. */
export function checkStruct(value: unknown, path: string): RequestProblem | undefined {
  return isRecord(value)
    ? undefined
    : invalidValue(path, 'type.googleapis.com/google.protobuf.Struct', value);
}

export function toCamelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

export function toSnakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
