import type { LossLog } from '../../ir/loss.js';
import type {
  CanonicalRequest,
  ReasoningEffort,
  ReasoningOptions,
  ResponseFormat,
} from '../../ir/request.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import type { DecodeRequestContext } from '../protocol-codec.js';
import {
  asFiniteNumber,
  asJsonObject,
  asString,
  asStringArray,
  parseJson,
  withoutKeys,
  type JsonObject,
} from '../wire-json.js';
import { BEDROCK_CONVERSE, type ConverseRequestExtensions } from './bedrock-converse-extensions.js';
import { decodeAdditionalModelRequestFields } from './decode-additional-model-request-fields.js';
import { decodeMessages, decodeSystem } from './decode-messages.js';
import { decodeToolConfig } from './decode-tools.js';

/** Members with a canonical meaning; every other top-level member is kept in `extensions`. */
const KNOWN_FIELDS = [
  'modelId',
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'additionalModelRequestFields',
  'outputConfig',
];

const INFERENCE_FIELDS = ['maxTokens', 'temperature', 'topP', 'stopSequences'];

/** `outputConfig.effort` values the canonical effort can say. */
const CANONICAL_EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh'] satisfies ReasoningEffort[];

/** Name given to a JSON schema format that has none (`JsonSchemaDefinition.name` is optional). */
export const JSON_SCHEMA_NAME = 'response';

/**
 * A Converse request body (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html)
 * -> canonical request. The model and the stream flag are in the path (`/model/{modelId}/converse`
 * or `/converse-stream`), so they come from the context; a `modelId` member (the SDK's input
 * shape) is read when the context has none.
 */
export function decodeRequest(
  body: Record<string, unknown>,
  context: DecodeRequestContext,
): CanonicalRequest {
  const { losses } = context;
  const { tools, toolChoice } = decodeToolConfig(body.toolConfig, losses);
  const request: CanonicalRequest = {
    model: context.model ?? asString(body.modelId) ?? '',
    system: decodeSystem(body.system, losses),
    messages: decodeMessages(body.messages, losses),
    tools,
    ...(toolChoice ? { toolChoice } : {}),
    stream: context.stream ?? false,
    extensions: {},
  };
  decodeInferenceConfig(body.inferenceConfig, { request, losses });

  const extensions: ConverseRequestExtensions = {};
  const fields = decodeAdditionalModelRequestFields(body.additionalModelRequestFields);
  if (fields.topK !== undefined) request.topK = fields.topK;
  if (fields.thinking) extensions.thinking = fields.thinking;
  if (fields.rest) extensions.additionalModelRequestFields = fields.rest;
  const reasoning: ReasoningOptions = { ...fields.reasoning };

  const outputConfig = asJsonObject(body.outputConfig);
  if (body.outputConfig !== undefined && !outputConfig)
    throw new InvalidRequestError('outputConfig', 'must be an object');
  if (outputConfig) {
    const responseFormat = decodeTextFormat(outputConfig.textFormat);
    if (responseFormat) request.responseFormat = responseFormat;
    const effort = asString(outputConfig.effort);
    if (effort !== undefined && CANONICAL_EFFORTS.includes(effort))
      reasoning.effort = effort as ReasoningEffort;
    const rest = withoutKeys(outputConfig, ['textFormat']);
    if (rest) extensions.outputConfig = rest;
  }
  if (Object.keys(reasoning).length > 0) request.reasoning = reasoning;

  const rest = withoutKeys(body, KNOWN_FIELDS);
  if (rest) extensions.body = rest;
  if (Object.keys(extensions).length > 0) request.extensions[BEDROCK_CONVERSE] = { ...extensions };
  return request;
}

/** `InferenceConfiguration` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InferenceConfiguration.html) */
function decodeInferenceConfig(
  value: unknown,
  context: { request: CanonicalRequest; losses: LossLog },
): void {
  if (value === undefined || value === null) return;
  const config = asJsonObject(value);
  if (!config) throw new InvalidRequestError('inferenceConfig', 'must be an object');
  const { request } = context;
  const number = (field: string): number | undefined => {
    const raw = config[field];
    if (raw === undefined || raw === null) return undefined;
    const parsed = asFiniteNumber(raw);
    if (parsed === undefined) throw new InvalidRequestError(`inferenceConfig.${field}`, 'must be a number');
    return parsed;
  };
  const maxTokens = number('maxTokens');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = number('temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = number('topP');
  if (topP !== undefined) request.topP = topP;
  if (config.stopSequences !== undefined && config.stopSequences !== null) {
    const stop = asStringArray(config.stopSequences);
    if (!stop) throw new InvalidRequestError('inferenceConfig.stopSequences', 'must be an array of strings');
    request.stop = stop;
  }
  for (const key of Object.keys(withoutKeys(config, INFERENCE_FIELDS) ?? {}))
    context.losses.dropped(`inferenceConfig.${key}`, 'no canonical form for this inference setting');
}

/**
 * `outputConfig.textFormat` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_OutputFormat.html):
 * a JSON schema, sent as JSON text.
 */
function decodeTextFormat(value: unknown): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const format = asJsonObject(value);
  const definition: JsonObject | undefined = asJsonObject(asJsonObject(format?.structure)?.jsonSchema);
  const schemaText = asString(definition?.schema);
  if (format?.type !== 'json_schema' || !definition || schemaText === undefined)
    throw new InvalidRequestError('outputConfig.textFormat', 'must be a json_schema format with a schema');
  const schema = parseJson(schemaText);
  const schemaObject = schema.ok ? asJsonObject(schema.value) : undefined;
  if (!schemaObject)
    throw new InvalidRequestError(
      'outputConfig.textFormat.structure.jsonSchema.schema',
      'must be a JSON object text',
    );
  return {
    type: 'json-schema',
    name: asString(definition.name) ?? JSON_SCHEMA_NAME,
    schema: schemaObject,
    ...(typeof definition.description === 'string' ? { description: definition.description } : {}),
  };
}
