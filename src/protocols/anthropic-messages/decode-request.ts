import type { Message, Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type {
  CanonicalRequest,
  ReasoningEffort,
  ReasoningOptions,
  ResponseFormat,
} from '../../ir/request.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { DecodeRequestContext } from '../protocol-codec.js';
import { ANTHROPIC_MESSAGES, type AnthropicRequestExtensions } from './anthropic-extensions.js';
import { attachToolCallSignatures } from './attach-tool-call-signatures.js';
import { decodeContentBlock } from './decode-content-block.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import { asFiniteNumber, asString, isJsonObject, withoutKeys, type JsonObject } from '../wire-json.js';

/** Fields with a canonical meaning; every other top-level field is kept in `extensions`. */
const KNOWN_FIELDS = [
  'model',
  'messages',
  'system',
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'thinking',
  'metadata',
  'stream',
  'tools',
  'tool_choice',
  'output_config',
];

/** `output_config.effort` values the canonical effort can say (`max` cannot). */
const CANONICAL_EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh'] satisfies ReasoningEffort[];

/** A Messages request body (https://docs.anthropic.com/en/api/messages) -> canonical request. */
export function decodeRequest(
  body: Record<string, unknown>,
  context: DecodeRequestContext,
): CanonicalRequest {
  const { losses } = context;
  const conversation = decodeMessages(body.messages, losses);
  const { tools, toolFields } = decodeTools(body.tools);
  const extensions: AnthropicRequestExtensions = {};
  const rest = withoutKeys(body, KNOWN_FIELDS) ?? {};

  const request: CanonicalRequest = {
    model: context.model ?? asString(body.model) ?? '',
    system: [...decodeSystem(body.system, losses), ...conversation.leadingSystem],
    messages: conversation.messages,
    tools,
    stream: context.stream ?? body.stream === true,
    extensions: {},
  };
  Object.assign(request, decodeToolChoice(body.tool_choice));
  const maxTokens = optionalNumber(body, 'max_tokens');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = optionalNumber(body, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(body, 'top_p');
  if (topP !== undefined) request.topP = topP;
  const topK = optionalNumber(body, 'top_k');
  if (topK !== undefined) request.topK = topK;
  const stop = decodeStopSequences(body.stop_sequences);
  if (stop) request.stop = stop;

  const thinking = decodeThinking(body.thinking);
  if (thinking.stored) extensions.thinking = thinking.stored;
  const output = decodeOutputConfig(body.output_config);
  const betaFormat = decodeJsonSchemaFormat(body.output_format);
  // The beta's form is the canonical format itself; encoding writes the GA `output_config.format`.
  if (betaFormat) delete rest.output_format;
  if (betaFormat && output.responseFormat)
    losses.dropped('output_format', 'output_config.format is the response format; output_format is ignored');
  const responseFormat = output.responseFormat ?? betaFormat;
  if (responseFormat) request.responseFormat = responseFormat;
  if (output.rest) rest.output_config = output.rest;
  else if (body.output_config !== undefined && !isJsonObject(body.output_config))
    rest.output_config = body.output_config;
  const reasoning: ReasoningOptions = { ...thinking.reasoning };
  if (output.effort) reasoning.effort = output.effort;
  if (Object.keys(reasoning).length > 0) request.reasoning = reasoning;

  if (isJsonObject(body.metadata)) {
    const user = asString(body.metadata.user_id);
    if (user !== undefined) request.user = user;
    const metadata = withoutKeys(body.metadata, ['user_id']);
    if (metadata) rest.metadata = metadata;
  }

  if (Object.keys(rest).length > 0) extensions.body = rest;
  if (Object.keys(toolFields).length > 0) extensions.toolFields = toolFields;
  if (Object.keys(extensions).length > 0) request.extensions[ANTHROPIC_MESSAGES] = { ...extensions };
  return request;
}

/** `system`: a string or text blocks (https://docs.anthropic.com/en/api/messages#body-system). */
function decodeSystem(value: unknown, losses: LossLog): Part[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (!Array.isArray(value)) throw new GatewayError('field_required', { field: 'system' });
  return value.map((block, index) =>
    decodeContentBlock(block, { path: `system[${index}]`, losses, strict: true }),
  );
}

interface DecodedConversation {
  /** `system` messages before the first user or assistant message: part of the system prompt. */
  leadingSystem: Part[];
  messages: Message[];
}

/**
 * `messages`. Consecutive turns of one role are one turn to Anthropic, so they are merged here as
 * the encoder merges them; a user turn's tool results become one `tool` message ahead of the
 * turn's other content, which is where Anthropic requires them.
 */
function decodeMessages(value: unknown, losses: LossLog): DecodedConversation {
  if (!Array.isArray(value)) throw new GatewayError('field_required', { field: 'messages' });
  const conversation: DecodedConversation = { leadingSystem: [], messages: [] };
  const turns: { role: 'system' | 'user' | 'assistant'; parts: Part[] }[] = [];
  value.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isJsonObject(message)) throw new GatewayError('field_required', { field: path });
    const role = message.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system')
      throw new GatewayError('field_required', { field: `${path}.role` });
    const parts = decodeMessageContent(message.content, { path, losses });
    const previous = turns.at(-1);
    if (role !== 'system' && previous?.role === role) previous.parts.push(...parts);
    else turns.push({ role, parts });
  });
  let leading = true;
  for (const turn of turns) {
    if (turn.role === 'system' && leading) {
      conversation.leadingSystem.push(...turn.parts);
      continue;
    }
    leading = false;
    if (turn.role === 'user') {
      const results = turn.parts.filter((part) => part.type === 'tool-result');
      const others = turn.parts.filter((part) => part.type !== 'tool-result');
      if (results.length > 0) conversation.messages.push({ role: 'tool', parts: results });
      if (others.length > 0) conversation.messages.push({ role: 'user', parts: others });
      continue;
    }
    if (turn.parts.length > 0) conversation.messages.push({ role: turn.role, parts: turn.parts });
  }
  return conversation;
}

function decodeMessageContent(content: unknown, context: { path: string; losses: LossLog }): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new GatewayError('field_required', { field: `${context.path}.content` });
  return attachToolCallSignatures(
    content.map((block, index) =>
      decodeContentBlock(block, {
        path: `${context.path}.content[${index}]`,
        losses: context.losses,
        strict: true,
      }),
    ),
  );
}

function optionalNumber(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const number = asFiniteNumber(value);
  if (number === undefined) throw new GatewayError('field_required', { field });
  return number;
}

function decodeStopSequences(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string'))
    throw new GatewayError('field_required', { field: 'stop_sequences' });
  return value;
}

/**
 * `thinking` (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking): enabled with
 * a budget, disabled, or adaptive (the model chooses). Whatever the canonical options cannot say
 * (adaptive, `display`) keeps the whole object for a same-protocol encode.
 */
function decodeThinking(value: unknown): { reasoning?: ReasoningOptions; stored?: JsonObject } {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw new GatewayError('field_required', { field: 'thinking.type' });
  switch (value.type) {
    case 'enabled': {
      const budget = asFiniteNumber(value.budget_tokens);
      if (budget === undefined) throw new GatewayError('field_required', { field: 'thinking.budget_tokens' });
      const extra = withoutKeys(value, ['type', 'budget_tokens']);
      return { reasoning: { enabled: true, budgetTokens: budget }, ...(extra ? { stored: value } : {}) };
    }
    case 'disabled':
      return { reasoning: { enabled: false }, ...(withoutKeys(value, ['type']) ? { stored: value } : {}) };
    case undefined:
      throw new GatewayError('field_required', { field: 'thinking.type' });
    default:
      return { reasoning: { enabled: true }, stored: value };
  }
}

/**
 * `output_config` (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs and the
 * effort parameter): a JSON schema format is the canonical response format; an effort the
 * canonical form knows is the reasoning effort. The object minus the format stays in `extensions`.
 */
function decodeOutputConfig(value: unknown): {
  responseFormat?: ResponseFormat;
  effort?: ReasoningEffort;
  rest?: JsonObject;
} {
  if (!isJsonObject(value)) return {};
  const result: { responseFormat?: ResponseFormat; effort?: ReasoningEffort; rest?: JsonObject } = {};
  const format = value.format;
  let rest: JsonObject | undefined = value;
  const responseFormat = decodeJsonSchemaFormat(format);
  if (responseFormat) {
    result.responseFormat = responseFormat;
    rest = withoutKeys(value, ['format']);
  }
  const effort = asString(value.effort);
  if (effort !== undefined && CANONICAL_EFFORTS.includes(effort)) result.effort = effort as ReasoningEffort;
  if (rest) result.rest = rest;
  return result;
}

/**
 * A `JSONOutputFormat` (`{ type: 'json_schema', schema }`): in `output_config.format`, or in the
 * beta's top-level `output_format` that older clients still send
 * (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs).
 */
function decodeJsonSchemaFormat(format: unknown): ResponseFormat | undefined {
  if (!isJsonObject(format) || format.type !== 'json_schema' || !isJsonObject(format.schema))
    return undefined;
  return { type: 'json-schema', name: JSON_SCHEMA_NAME, schema: format.schema };
}

/** Anthropic's JSON schema format has no name; the canonical one needs one. */
export const JSON_SCHEMA_NAME = 'response';
