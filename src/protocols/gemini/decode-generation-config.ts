import type { CanonicalRequest, ReasoningOptions, ResponseFormat } from '../../ir/request.js';
import { assignMembers, setOwnMember, isJsonObject, type JsonObject } from '../wire-json.js';
import { convertGeminiSchema } from './convert-gemini-schema.js';
import { decodeGeminiThinkingConfig } from './decode-thinking-config.js';
import { InvalidRequestError } from '../invalid-request-error.js';

export type Sampling = Pick<
  CanonicalRequest,
  | 'maxOutputTokens'
  | 'temperature'
  | 'topP'
  | 'topK'
  | 'stop'
  | 'seed'
  | 'presencePenalty'
  | 'frequencyPenalty'
>;

export interface DecodedGenerationConfig {
  sampling: Sampling;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningOptions;
  thinkingConfig?: JsonObject;
  /** Fields with no canonical place (`candidateCount`, `responseModalities`, `speechConfig`...). */
  rest?: JsonObject;
}

const NUMBERS = {
  maxOutputTokens: 'maxOutputTokens',
  temperature: 'temperature',
  topP: 'topP',
  topK: 'topK',
  seed: 'seed',
  presencePenalty: 'presencePenalty',
  frequencyPenalty: 'frequencyPenalty',
} as const satisfies Record<string, keyof Sampling>;

/**
 * `generationConfig` (https://ai.google.dev/api/generate-content#generationconfig). JSON output
 * (`responseMimeType: application/json`, with `responseJsonSchema` or the OpenAPI-subset
 * `responseSchema`) is a response format; other MIME types stay Gemini's own.
 */
export function decodeGeminiGenerationConfig(value: unknown): DecodedGenerationConfig {
  if (value === undefined) return { sampling: {} };
  if (!isJsonObject(value)) throw new InvalidRequestError('generationConfig', 'must be an object');
  const sampling: Sampling = {};
  const rest: JsonObject = {};
  const decoded: DecodedGenerationConfig = { sampling };

  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    if (Object.hasOwn(NUMBERS, key)) {
      if (typeof member !== 'number' || !Number.isFinite(member))
        throw new InvalidRequestError(`generationConfig.${key}`, 'must be a number');
      sampling[NUMBERS[key as keyof typeof NUMBERS]] = member;
    } else if (key === 'stopSequences') {
      if (!Array.isArray(member) || !member.every((item) => typeof item === 'string'))
        throw new InvalidRequestError('generationConfig.stopSequences', 'must be an array of strings');
      sampling.stop = member;
    } else if (key === 'thinkingConfig') {
      if (!isJsonObject(member))
        throw new InvalidRequestError('generationConfig.thinkingConfig', 'must be an object');
      decoded.thinkingConfig = member;
      const reasoning = decodeGeminiThinkingConfig(member);
      if (reasoning) decoded.reasoning = reasoning;
    } else if (key !== 'responseMimeType' && key !== 'responseSchema' && key !== 'responseJsonSchema') {
      setOwnMember(rest, key, member);
    }
  }

  const format = decodeResponseFormat(value);
  if (format.responseFormat) decoded.responseFormat = format.responseFormat;
  assignMembers(rest, format.rest);
  if (Object.keys(rest).length > 0) decoded.rest = rest;
  return decoded;
}

function decodeResponseFormat(config: JsonObject): { responseFormat?: ResponseFormat; rest: JsonObject } {
  const { responseMimeType, responseSchema, responseJsonSchema } = config;
  const schemaFields: JsonObject = {};
  if (responseSchema !== undefined) schemaFields.responseSchema = responseSchema;
  if (responseJsonSchema !== undefined) schemaFields.responseJsonSchema = responseJsonSchema;
  if (responseMimeType === 'application/json') {
    const schema = isJsonObject(responseJsonSchema)
      ? responseJsonSchema
      : isJsonObject(responseSchema)
        ? convertGeminiSchema(responseSchema)
        : undefined;
    return {
      responseFormat: schema ? { type: 'json-schema', name: 'response', schema } : { type: 'json-object' },
      rest: {},
    };
  }
  if (responseMimeType === 'text/plain') return { responseFormat: { type: 'text' }, rest: schemaFields };
  return { rest: responseMimeType === undefined ? schemaFields : { responseMimeType, ...schemaFields } };
}
