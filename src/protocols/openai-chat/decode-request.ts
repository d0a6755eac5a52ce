import type {
  CanonicalRequest,
  ReasoningEffort,
  ReasoningOptions,
  ResponseFormat,
} from '../../ir/request.js';
import type { DecodeRequestContext } from '../protocol-codec.js';
import type { ContentDecodeState } from './decode-content-part.js';
import { decodeMessages } from './decode-messages.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { isJsonObject, withoutKeys, type JsonObject } from '../wire-json.js';
import { OPENAI_CHAT, type OpenAIChatRequestExtension } from './openai-chat-extension.js';

/** Top-level fields with a canonical home; every other field is kept verbatim in the extension. */
const canonicalKeys = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
  'reasoning_effort',
  'web_search_options',
  'user',
  'stream',
  'stream_options',
]);

const efforts: ReadonlySet<string> = new Set<ReasoningEffort>([
  'none',
  'minimal',
  'low',
  'medium',
  'high',
  'xhigh',
]);

/**
 * A client's chat completions request -> canonical
 * (https://platform.openai.com/docs/api-reference/chat/create). Strict about what the API requires;
 * fields only chat completions knows go to `extensions['openai-chat']` for a same-protocol encode.
 */
export function decodeOpenAIChatRequest(body: JsonObject, context: DecodeRequestContext): CanonicalRequest {
  const model = context.model ?? body.model;
  if (typeof model !== 'string' || model === '') throw new InvalidRequestError('model', 'is required');
  const state: ContentDecodeState = { breakpoints: false };
  const { system, messages, systemMessages, developerMessages } = decodeMessages(body.messages, {
    losses: context.losses,
    state,
  });
  const fields: JsonObject = withoutKeys(body, canonicalKeys) ?? {};

  const toolChoice = decodeToolChoice(body.tool_choice);
  if (toolChoice === undefined && body.tool_choice !== undefined && body.tool_choice !== null)
    fields.tool_choice = body.tool_choice;

  const maxCompletionTokens = integer(body, 'max_completion_tokens');
  const maxTokens = integer(body, 'max_tokens');
  // Both caps given: the newer one rules, the other travels on unchanged.
  if (maxCompletionTokens !== undefined && maxTokens !== undefined) fields.max_tokens = maxTokens;

  const responseFormat = decodeResponseFormat(body.response_format);
  if (responseFormat === undefined && body.response_format !== undefined && body.response_format !== null)
    fields.response_format = body.response_format;

  const reasoning = decodeReasoningEffort(body.reasoning_effort);
  if (reasoning === undefined && body.reasoning_effort !== undefined && body.reasoning_effort !== null)
    fields.reasoning_effort = body.reasoning_effort;

  const streamOptions = decodeStreamOptions(body.stream_options);
  if (streamOptions) fields.stream_options = streamOptions;

  const topK = number(body, 'top_k');
  const extension: OpenAIChatRequestExtension = {
    ...(Object.keys(fields).length > 0 && { fields }),
    ...(maxCompletionTokens === undefined && maxTokens !== undefined && { maxTokensField: 'max_tokens' }),
    ...(systemMessages && { systemMessages }),
    ...(developerMessages && { developerMessages }),
    ...(state.breakpoints && { promptCacheBreakpoints: true }),
    ...(topK !== undefined && { topK: true }),
  };

  const request: CanonicalRequest = {
    model,
    system,
    messages,
    tools: decodeTools(body.tools, body.web_search_options),
    stream: context.stream ?? boolean(body, 'stream') ?? false,
    extensions: Object.keys(extension).length > 0 ? { [OPENAI_CHAT]: extension } : {},
  };
  if (toolChoice) request.toolChoice = toolChoice;
  assign(request, 'parallelToolCalls', boolean(body, 'parallel_tool_calls'));
  assign(request, 'maxOutputTokens', maxCompletionTokens ?? maxTokens);
  assign(request, 'temperature', number(body, 'temperature'));
  assign(request, 'topP', number(body, 'top_p'));
  assign(request, 'topK', topK);
  assign(request, 'stop', decodeStop(body.stop));
  assign(request, 'seed', integer(body, 'seed'));
  assign(request, 'frequencyPenalty', number(body, 'frequency_penalty'));
  assign(request, 'presencePenalty', number(body, 'presence_penalty'));
  assign(request, 'responseFormat', responseFormat);
  assign(request, 'reasoning', reasoning);
  assign(request, 'user', string(body, 'user'));
  return request;
}

/** Sets an optional field only when it has a value, so decoded requests compare equal. */
function assign<K extends keyof CanonicalRequest>(
  request: CanonicalRequest,
  key: K,
  value: CanonicalRequest[K],
): void {
  if (value !== undefined) request[key] = value;
}

function number(body: JsonObject, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new InvalidRequestError(key, 'must be a number');
  return value;
}

function integer(body: JsonObject, key: string): number | undefined {
  const value = number(body, key);
  if (value !== undefined && !Number.isInteger(value))
    throw new InvalidRequestError(key, 'must be an integer');
  return value;
}

function boolean(body: JsonObject, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new InvalidRequestError(key, 'must be a boolean');
  return value;
}

function string(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(key, 'must be a string');
  return value;
}

/** `stop`: one string or up to four. */
function decodeStop(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw new InvalidRequestError('stop', 'must be a string or an array of strings');
}

/** https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format */
function decodeResponseFormat(value: unknown): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw new InvalidRequestError('response_format', 'must be an object');
  switch (value.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json-object' };
    case 'json_schema': {
      const schema = value.json_schema;
      if (!isJsonObject(schema) || typeof schema.name !== 'string')
        throw new InvalidRequestError('response_format.json_schema.name', 'must be a string');
      if (schema.schema !== undefined && !isJsonObject(schema.schema))
        throw new InvalidRequestError('response_format.json_schema.schema', 'must be an object');
      return {
        type: 'json-schema',
        name: schema.name,
        schema: schema.schema ?? {},
        ...(typeof schema.strict === 'boolean' && { strict: schema.strict }),
        ...(typeof schema.description === 'string' && { description: schema.description }),
      };
    }
    default:
      return undefined;
  }
}

/** `reasoning_effort`; a value the canonical form does not know (`max`) stays for this protocol only. */
function decodeReasoningEffort(value: unknown): ReasoningOptions | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError('reasoning_effort', 'must be a string');
  return efforts.has(value) ? { effort: value as ReasoningEffort } : undefined;
}

/**
 * `stream_options` stays with this protocol, without `include_usage`: the gateway always asks an
 * upstream for usage, and the relay reads the client's own wish from its body.
 */
function decodeStreamOptions(value: unknown): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw new InvalidRequestError('stream_options', 'must be an object');
  return withoutKeys(value, new Set(['include_usage']));
}
