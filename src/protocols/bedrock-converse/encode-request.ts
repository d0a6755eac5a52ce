import type { LossLog } from '../../ir/loss.js';
import type { CanonicalRequest, ResponseFormat } from '../../ir/request.js';
import type { EncodeRequestOptions } from '../protocol-codec.js';
import { setOwnMember, withoutKeys } from '../wire-json.js';
import { BEDROCK_CONVERSE, readRequestExtensions } from './bedrock-converse-extensions.js';
import { bedrockModelFamily } from './bedrock-model-family.js';
import { encodeModelFields } from './encode-additional-model-request-fields.js';
import { DocumentNames } from './encode-file-block.js';
import { encodeConversation } from './encode-messages.js';
import { encodeToolConfig } from './encode-tools.js';
import type { ConverseInferenceConfig, ConverseOutputConfig, ConverseRequestBody } from './wire-types.js';

/**
 * Canonical request -> the body of `POST /model/{modelId}/converse` (or `/converse-stream`)
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html). The model
 * and the choice of streaming travel in the path, which the provider builds: neither is in the
 * body. `maxTokens` is sent when the request has a cap (or Claude's thinking budget needs one).
 */
export function encodeRequest(request: CanonicalRequest, options: EncodeRequestOptions): ConverseRequestBody {
  const { losses } = options;
  const extensions = readRequestExtensions(request.extensions);
  const family = bedrockModelFamily(request.model);
  const conversation = encodeConversation({
    system: request.system,
    messages: request.messages,
    losses,
    documentNames: new DocumentNames(),
    unsignedReasoning: family === 'anthropic' ? 'drop' : 'send',
  });
  const body: ConverseRequestBody = { messages: conversation.messages };
  if (conversation.system.length > 0) body.system = conversation.system;

  const toolConfig = encodeToolConfig({
    tools: request.tools,
    toolChoice: request.toolChoice,
    parallelToolCalls: request.parallelToolCalls,
    messages: conversation.messages,
    losses,
  });
  if (toolConfig) body.toolConfig = toolConfig;

  const model = encodeModelFields({
    request,
    family,
    extensions,
    messages: conversation.messages,
    toolChoice: toolConfig?.toolChoice,
    defaultMaxTokens: options.defaultMaxTokens,
    losses,
  });
  const inferenceConfig = encodeInferenceConfig(request, {
    thinkingOn: model.thinkingOn,
    maxTokens: request.maxOutputTokens ?? model.maxTokens,
    losses,
  });
  if (inferenceConfig) body.inferenceConfig = inferenceConfig;
  if (model.fields) body.additionalModelRequestFields = model.fields;

  const outputConfig: ConverseOutputConfig = { ...withoutKeys(extensions.outputConfig ?? {}, ['effort']) };
  if (model.effort !== undefined) outputConfig.effort = model.effort;
  const textFormat = encodeTextFormat(request.responseFormat, losses);
  if (textFormat) outputConfig.textFormat = textFormat;
  if (Object.keys(outputConfig).length > 0) body.outputConfig = outputConfig;

  if (request.seed !== undefined) losses.dropped('seed', 'Converse has no seed');
  if (request.frequencyPenalty !== undefined)
    losses.dropped('frequencyPenalty', 'Converse has no frequency penalty');
  if (request.presencePenalty !== undefined)
    losses.dropped('presencePenalty', 'Converse has no presence penalty');
  if (request.user !== undefined) losses.dropped('user', 'Converse has no end-user id');
  for (const [key, value] of Object.entries(extensions.body ?? {}))
    if (!Object.hasOwn(body, key)) setOwnMember(body, key, value);
  for (const [protocol, fields] of Object.entries(request.extensions)) {
    if (protocol === BEDROCK_CONVERSE) continue;
    for (const key of Object.keys(fields))
      losses.dropped(`extensions.${protocol}.${key}`, `no Converse form for this ${protocol} field`);
  }
  return body;
}

/**
 * `InferenceConfiguration` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InferenceConfiguration.html):
 * temperature and top-p run 0..1; stop sequences are not empty. With Claude thinking, only the
 * default temperature and a top-p from 0.95 are accepted
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html).
 */
function encodeInferenceConfig(
  request: CanonicalRequest,
  context: { thinkingOn: boolean; maxTokens: number | undefined; losses: LossLog },
): ConverseInferenceConfig | undefined {
  const { thinkingOn, losses } = context;
  const config: ConverseInferenceConfig = {};
  if (context.maxTokens !== undefined) config.maxTokens = context.maxTokens;
  if (request.temperature !== undefined) {
    if (thinkingOn && request.temperature !== 1)
      losses.dropped('temperature', 'Claude thinking requires the default temperature');
    else if (request.temperature > 1) {
      losses.coerced('temperature', `temperature ${request.temperature} above Converse's maximum: 1`);
      config.temperature = 1;
    } else config.temperature = request.temperature;
  }
  if (request.topP !== undefined) {
    if (thinkingOn && request.topP < 0.95)
      losses.dropped('topP', 'Claude thinking accepts top_p from 0.95 only');
    else config.topP = request.topP;
  }
  if (request.stop !== undefined) {
    const stop = request.stop.filter((sequence, index) => {
      if (sequence.length > 0) return true;
      losses.dropped(`stop[${index}]`, 'Converse refuses empty stop sequences');
      return false;
    });
    if (stop.length > 0) config.stopSequences = stop;
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * `outputConfig.textFormat` (https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html):
 * a JSON schema, as JSON text; Converse has no JSON mode without a schema.
 */
function encodeTextFormat(
  format: ResponseFormat | undefined,
  losses: LossLog,
): ConverseOutputConfig['textFormat'] | undefined {
  switch (format?.type) {
    case undefined:
    case 'text':
      return undefined;
    case 'json-object':
      losses.dropped('responseFormat', 'Converse has no JSON mode without a schema');
      return undefined;
    case 'json-schema':
      if (format.strict === false)
        losses.coerced('responseFormat.strict', 'Converse structured output always follows the schema');
      return {
        type: 'json_schema',
        structure: {
          jsonSchema: {
            schema: JSON.stringify(format.schema),
            name: format.name,
            ...(format.description !== undefined ? { description: format.description } : {}),
          },
        },
      };
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}
