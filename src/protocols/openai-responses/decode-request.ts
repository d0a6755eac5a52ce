import type { Part } from '../../ir/content.js';
import type { ReasoningOptions, ResponseFormat, CanonicalRequest } from '../../ir/request.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { DecodeRequestContext } from '../protocol-codec.js';
import { decodeInput } from './decode-input.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import { fieldError, requireString } from '../invalid-request-error.js';
import { asCount, isJsonObject, withoutKeys, asString, type JsonObject } from '../wire-json.js';
import { ITEM_DETAIL_KEY, PROTOCOL, type RequestItemDetail } from './responses-extensions.js';

/** Body fields with a canonical counterpart; every other field is kept verbatim in the extensions. */
const MAPPED_FIELDS = [
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'frequency_penalty',
  'presence_penalty',
  'reasoning',
  'text',
  'stream',
  'user',
] as const;

/**
 * A `POST /v1/responses` body (https://platform.openai.com/docs/api-reference/responses/create) in
 * the canonical form. Fields with no canonical counterpart (store, include, previous_response_id,
 * prompt_cache_key, truncation, metadata, service_tier, conversation...) and the unmapped members
 * of `reasoning`, `text` and `tool_choice` go verbatim into `extensions['openai-responses']`, which
 * `encodeRequest` spreads back. The extension object is always present: it also says the request
 * came from a Responses client.
 */
export function decodeOpenAIResponsesRequest(
  body: Record<string, unknown>,
  context: DecodeRequestContext,
): CanonicalRequest {
  const model = asString(body.model) || context.model;
  if (!model) throw new GatewayError('model_missing');
  const detail: RequestItemDetail = {};
  const extension: JsonObject = withoutKeys(body, MAPPED_FIELDS) ?? {};
  const request: CanonicalRequest = {
    model,
    system: decodeInstructions(body.instructions, extension),
    messages: decodeInput({ input: body.input, losses: context.losses, detail }),
    tools: decodeTools(body.tools, detail),
    stream: context.stream ?? body.stream === true,
    extensions: {},
  };

  const toolChoice = decodeToolChoice(body.tool_choice);
  if (toolChoice) request.toolChoice = toolChoice;
  else if (body.tool_choice !== undefined && body.tool_choice !== null)
    extension.tool_choice = body.tool_choice;

  assign(request, 'parallelToolCalls', optional(body, 'parallel_tool_calls', 'a boolean', isBoolean));
  assign(request, 'maxOutputTokens', optional(body, 'max_output_tokens', 'a non-negative integer', isCount));
  assign(request, 'temperature', optional(body, 'temperature', 'a number', isNumber));
  assign(request, 'topP', optional(body, 'top_p', 'a number', isNumber));
  assign(request, 'topK', optional(body, 'top_k', 'a number', isNumber));
  assign(request, 'frequencyPenalty', optional(body, 'frequency_penalty', 'a number', isNumber));
  assign(request, 'presencePenalty', optional(body, 'presence_penalty', 'a number', isNumber));
  assign(request, 'user', optional(body, 'user', 'a string', isString));
  assign(request, 'stop', decodeStop(body.stop));
  assign(request, 'reasoning', decodeReasoning(body.reasoning, extension));
  assign(request, 'responseFormat', decodeText(body.text, extension));

  if (Object.keys(detail).length > 0) extension[ITEM_DETAIL_KEY] = detail;
  request.extensions[PROTOCOL] = extension;
  return request;
}

function decodeInstructions(instructions: unknown, extension: JsonObject): Part[] {
  if (instructions === undefined || instructions === null) return [];
  if (typeof instructions === 'string') return [{ type: 'text', text: instructions }];
  // A stored prompt's instructions can be a list of items: kept as they are.
  extension.instructions = instructions;
  return [];
}

function decodeStop(stop: unknown): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  if (typeof stop === 'string') return [stop];
  if (Array.isArray(stop) && stop.every((entry) => typeof entry === 'string')) return stop;
  throw fieldError({ field: 'stop', value: stop, expected: 'a string or an array of strings' });
}

const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
const SUMMARIES = new Set(['auto', 'concise', 'detailed']);

/** `reasoning: { effort, summary }` (https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning). */
function decodeReasoning(reasoning: unknown, extension: JsonObject): ReasoningOptions | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isJsonObject(reasoning))
    throw fieldError({ field: 'reasoning', value: reasoning, expected: 'an object' });
  const options: ReasoningOptions = {};
  const mapped: string[] = [];
  if (typeof reasoning.effort === 'string' && EFFORTS.has(reasoning.effort)) {
    options.effort = reasoning.effort as NonNullable<ReasoningOptions['effort']>;
    mapped.push('effort');
  }
  if (typeof reasoning.summary === 'string' && SUMMARIES.has(reasoning.summary)) {
    options.summary = reasoning.summary as NonNullable<ReasoningOptions['summary']>;
    options.includeThoughts = true;
    mapped.push('summary');
  }
  const rest = withoutKeys(reasoning, mapped);
  if (rest) extension.reasoning = rest;
  return Object.keys(options).length > 0 ? options : undefined;
}

/** `text.format` (https://platform.openai.com/docs/guides/structured-outputs); `verbosity` and the like stay verbatim. */
function decodeText(text: unknown, extension: JsonObject): ResponseFormat | undefined {
  if (text === undefined || text === null) return undefined;
  if (!isJsonObject(text)) throw fieldError({ field: 'text', value: text, expected: 'an object' });
  const format = decodeFormat(text.format);
  const rest = withoutKeys(text, format ? ['format'] : []);
  if (rest) extension.text = rest;
  return format;
}

function decodeFormat(format: unknown): ResponseFormat | undefined {
  if (!isJsonObject(format)) return undefined;
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json-object' };
    case 'json_schema': {
      if (!isJsonObject(format.schema)) {
        throw fieldError({ field: 'text.format.schema', value: format.schema, expected: 'an object' });
      }
      const decoded: ResponseFormat = {
        type: 'json-schema',
        name: requireString(format.name, 'text.format.name'),
        schema: format.schema,
      };
      if (typeof format.strict === 'boolean') decoded.strict = format.strict;
      if (typeof format.description === 'string') decoded.description = format.description;
      return decoded;
    }
    default:
      return undefined;
  }
}

function optional<T>(
  body: JsonObject,
  field: string,
  expected: string,
  check: (value: unknown) => value is T,
): T | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!check(value)) throw fieldError({ field, value, expected });
  return value;
}

function assign<K extends keyof CanonicalRequest>(
  request: CanonicalRequest,
  key: K,
  value: CanonicalRequest[K] | undefined,
): void {
  if (value !== undefined) request[key] = value;
}

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isInteger(value) && asCount(value) !== undefined;
