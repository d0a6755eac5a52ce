import type { LossLog } from '../../ir/loss.js';
import type { CanonicalRequest, ResponseFormat } from '../../ir/request.js';
import type { EncodeRequestOptions } from '../protocol-codec.js';
import { ANTHROPIC_MESSAGES, readRequestExtensions } from './anthropic-extensions.js';
import { JSON_SCHEMA_NAME } from './decode-request.js';
import { encodeConversation } from './encode-messages.js';
import { canThinkWith, encodeReasoning, isThinkingOn } from './encode-reasoning.js';
import { encodeToolChoice, encodeTools } from './encode-tools.js';
import { asJsonObject, withoutKeys, type JsonObject } from '../wire-json.js';
import type { AnthropicMessageParam, AnthropicMessagesRequest, AnthropicToolChoice } from './wire-types.js';

/** Stored top-level fields merged with canonical ones above rather than restored as they were. */
const MERGED_FIELDS = ['output_config', 'metadata'];

/**
 * Canonical request -> Messages request body (https://docs.anthropic.com/en/api/messages).
 * `max_tokens` is required: the request's cap, else the platform default (client-api 4.7 rule 1).
 */
export function encodeRequest(
  request: CanonicalRequest,
  options: EncodeRequestOptions,
): AnthropicMessagesRequest {
  const { losses } = options;
  const extensions = readRequestExtensions(request.extensions);
  const stored = extensions.body ?? {};
  const maxTokens = request.maxOutputTokens ?? options.defaultMaxTokens;
  const conversation = encodeConversation({ system: request.system, messages: request.messages, losses });
  const body: AnthropicMessagesRequest = {
    model: request.model,
    max_tokens: maxTokens,
    ...(conversation.system !== undefined ? { system: conversation.system } : {}),
    messages: conversation.messages,
  };

  const tools = encodeTools({ tools: request.tools, toolFields: extensions.toolFields ?? {}, losses });
  if (tools.length > 0) body.tools = tools;

  const storedOutputConfig = asJsonObject(stored.output_config);
  let reasoning = encodeReasoning({
    reasoning: request.reasoning,
    maxTokens,
    storedThinking: extensions.thinking,
    storedEffort: storedOutputConfig?.effort,
    losses,
  });
  const toolChoice = encodeToolChoice({
    toolChoice: request.toolChoice,
    parallelToolCalls: request.parallelToolCalls,
    hasTools: tools.length > 0,
    losses,
  });
  if (isThinkingOn(reasoning.thinking)) {
    const conflict = thinkingConflict({ messages: conversation.messages, toolChoice });
    if (conflict) {
      losses.dropped('reasoning', conflict);
      reasoning = reasoning.effort === undefined ? {} : { effort: reasoning.effort };
    }
  }
  const thinkingOn = isThinkingOn(reasoning.thinking);
  if (toolChoice) body.tool_choice = toolChoice;

  encodeSampling(request, { body, thinkingOn, losses });
  if (reasoning.thinking) body.thinking = reasoning.thinking;

  const outputConfig: JsonObject = { ...withoutKeys(storedOutputConfig ?? {}, ['effort']) };
  if (reasoning.effort !== undefined) outputConfig.effort = reasoning.effort;
  const format = encodeResponseFormat(request.responseFormat, losses);
  if (format) outputConfig.format = format;
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  else if (stored.output_config !== undefined && !storedOutputConfig)
    body.output_config = stored.output_config;

  const metadata: JsonObject = { ...asJsonObject(stored.metadata) };
  if (request.user !== undefined) metadata.user_id = request.user;
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  if (request.stream) body.stream = true;

  for (const [key, value] of Object.entries(stored))
    if (!(key in body) && !MERGED_FIELDS.includes(key)) body[key] = value;
  for (const [protocol, fields] of Object.entries(request.extensions)) {
    if (protocol === ANTHROPIC_MESSAGES) continue;
    for (const key of Object.keys(fields))
      losses.dropped(`extensions.${protocol}.${key}`, `no Anthropic form for this ${protocol} field`);
  }
  return body;
}

/**
 * Why Anthropic would refuse thinking in this request, if it would. Thinking is what gives way:
 * a tool loop whose calling turn lost its signed thinking cannot get it back, and a forced tool
 * choice is what the client asked for explicitly
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#extended-thinking-with-tool-use).
 */
function thinkingConflict(options: {
  messages: AnthropicMessageParam[];
  toolChoice: AnthropicToolChoice | undefined;
}): string | undefined {
  if (!canThinkWith(options.messages))
    return 'Anthropic thinks in a tool loop only when the calling turn comes back with its signed thinking block first, and this one has none: thinking off';
  const choice = options.toolChoice?.type;
  if (choice === 'any' || choice === 'tool')
    return 'Anthropic does not think when tool_choice forces tool use: thinking off, the forced tool choice kept';
  return undefined;
}

/**
 * Sampling settings. Anthropic's temperature runs 0..1; with thinking on, only temperature 1,
 * top_p from 0.95 and no top_k are accepted
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#feature-compatibility).
 */
function encodeSampling(
  request: CanonicalRequest,
  context: { body: AnthropicMessagesRequest; thinkingOn: boolean; losses: LossLog },
): void {
  const { body, thinkingOn, losses } = context;
  if (request.temperature !== undefined) {
    if (thinkingOn && request.temperature !== 1)
      losses.dropped('temperature', 'Anthropic thinking requires the default temperature');
    else if (request.temperature > 1) {
      losses.coerced('temperature', `temperature ${request.temperature} above Anthropic's maximum: 1`);
      body.temperature = 1;
    } else body.temperature = request.temperature;
  }
  if (request.topP !== undefined) {
    if (thinkingOn && request.topP < 0.95)
      losses.dropped('topP', 'Anthropic thinking accepts top_p from 0.95 only');
    else body.top_p = request.topP;
  }
  if (request.topK !== undefined) {
    if (thinkingOn) losses.dropped('topK', 'Anthropic thinking accepts no top_k');
    else body.top_k = request.topK;
  }
  if (request.stop !== undefined) {
    // Anthropic rejects stop sequences made of whitespace only.
    const stop = request.stop.filter((sequence, index) => {
      if (sequence.trim().length > 0) return true;
      losses.dropped(`stop[${index}]`, 'Anthropic rejects whitespace-only stop sequences');
      return false;
    });
    if (stop.length > 0) body.stop_sequences = stop;
  }
  if (request.seed !== undefined) losses.dropped('seed', 'Anthropic has no seed');
  if (request.frequencyPenalty !== undefined)
    losses.dropped('frequencyPenalty', 'Anthropic has no frequency penalty');
  if (request.presencePenalty !== undefined)
    losses.dropped('presencePenalty', 'Anthropic has no presence penalty');
}

/** https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs: a JSON schema only. */
function encodeResponseFormat(format: ResponseFormat | undefined, losses: LossLog): JsonObject | undefined {
  switch (format?.type) {
    case undefined:
    case 'text':
      return undefined;
    case 'json-object':
      losses.dropped('responseFormat', 'Anthropic has no JSON mode without a schema');
      return undefined;
    case 'json-schema':
      if (format.name !== JSON_SCHEMA_NAME)
        losses.dropped('responseFormat.name', 'Anthropic JSON schema formats have no name');
      if (format.description !== undefined)
        losses.dropped('responseFormat.description', 'Anthropic JSON schema formats have no description');
      if (format.strict === false)
        losses.coerced('responseFormat.strict', 'Anthropic JSON schema formats are always strict');
      return { type: 'json_schema', schema: format.schema };
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}
