import type { Part } from '../../ir/content.js';
import type {
  CanonicalRequest,
  ReasoningEffort,
  ReasoningOptions,
  ResponseFormat,
} from '../../ir/request.js';
import type { EncodeRequestOptions } from '../protocol-codec.js';
import type { EncodeContext } from './encode-content-part.js';
import { encodeInput } from './encode-input.js';
import { encodeToolChoice, encodeTools } from './encode-tools.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';
import { ITEM_DETAIL_KEY, PROTOCOL, type RequestItemDetail } from './responses-extensions.js';
import type { ResponsesInputItem, ResponsesRequestBody, ResponsesTextFormat } from './wire-types.js';

/** The API rejects smaller output caps (`max_output_tokens` must be at least 16). */
const MIN_OUTPUT_TOKENS = 16;
/** Extension members this encoder merges into mapped fields instead of copying. */
const MERGED_EXTENSION_KEYS = new Set([ITEM_DETAIL_KEY, 'reasoning', 'text', 'tool_choice']);

/**
 * The canonical request as a `POST /v1/responses` body
 * (https://platform.openai.com/docs/api-reference/responses/create). A request that came from a
 * Responses client (its extension is present) gets its own fields back verbatim; one from another
 * protocol gets `store: false` (the gateway never continues a stored response) and loses, with
 * the loss recorded, what Responses cannot express.
 */
export function encodeOpenAIResponsesRequest(
  request: CanonicalRequest,
  options: EncodeRequestOptions,
): ResponsesRequestBody {
  const extension = request.extensions[PROTOCOL];
  const context: EncodeContext = { losses: options.losses, sameProtocol: extension !== undefined };
  const detail = readItemDetail(extension);
  const { losses } = context;
  const body: ResponsesRequestBody = { model: request.model };

  const instructions = encodeInstructions(request.system, context);
  if (instructions !== undefined) body.instructions = instructions;
  const input = encodeInput({ messages: request.messages, detail, context });
  if (input.length > 0) body.input = asShortInput(input) ?? input;
  if (request.tools.length > 0) body.tools = encodeTools({ tools: request.tools, detail, context });
  if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
  else if (isJsonObject(extension?.tool_choice)) body.tool_choice = extension.tool_choice;
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.maxOutputTokens !== undefined)
    body.max_output_tokens = outputCap(request.maxOutputTokens, context);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;

  // Not OpenAI parameters, but recognised by Responses-compatible servers: only a Responses client's own are sent.
  const extras: [string, unknown][] = [
    ['top_k', request.topK],
    ['stop', request.stop],
    ['frequency_penalty', request.frequencyPenalty],
    ['presence_penalty', request.presencePenalty],
  ];
  for (const [field, value] of extras) {
    if (value === undefined) continue;
    if (context.sameProtocol) body[field] = value;
    else losses.dropped(field, `Responses has no ${field}`);
  }
  if (request.seed !== undefined) losses.dropped('seed', 'Responses has no seed');

  const reasoning = encodeReasoning(request.reasoning, extension?.reasoning, context);
  if (reasoning) body.reasoning = reasoning;
  const text = encodeText(request.responseFormat, extension?.text);
  if (text) body.text = text;
  if (request.stream) body.stream = true;
  if (request.user !== undefined) body.user = request.user;

  if (extension) {
    for (const [key, value] of Object.entries(extension)) {
      if (!MERGED_EXTENSION_KEYS.has(key) && !(key in body)) body[key] = value;
    }
  } else {
    body.store = false;
  }
  return body;
}

function readItemDetail(extension: JsonObject | undefined): RequestItemDetail {
  const detail = extension?.[ITEM_DETAIL_KEY];
  return isJsonObject(detail) ? (detail as RequestItemDetail) : {};
}

/** Responses has one instruction string: text parts are joined, anything else is dropped. */
function encodeInstructions(system: Part[], context: EncodeContext): string | undefined {
  const texts: string[] = [];
  system.forEach((part, index) => {
    if (part.type === 'text') {
      texts.push(part.text);
      if (part.cacheControl)
        context.losses.dropped(
          `system[${index}].cache_control`,
          'Responses instructions carry no cache marker',
        );
    } else {
      context.losses.dropped(
        `system[${index}]`,
        `a ${part.type} part cannot be part of Responses instructions`,
      );
    }
  });
  if (texts.length > 1)
    context.losses.coerced(
      'system',
      `${texts.length} system text parts are joined into one instructions string`,
    );
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/** A lone user text is sent as the string form of `input`. */
function asShortInput(items: ResponsesInputItem[]): string | undefined {
  const [only] = items;
  if (items.length !== 1 || !only || only.role !== 'user' || typeof only.content !== 'string')
    return undefined;
  return Object.keys(only).length === 2 ? only.content : undefined;
}

function outputCap(tokens: number, context: EncodeContext): number {
  if (tokens >= MIN_OUTPUT_TOKENS || context.sameProtocol) return tokens;
  context.losses.coerced(
    'max_output_tokens',
    `Responses requires at least ${MIN_OUTPUT_TOKENS} output tokens; ${tokens} is raised`,
  );
  return MIN_OUTPUT_TOKENS;
}

/**
 * `reasoning.effort` and `reasoning.summary` (admin-api section 4: the effort reaches OpenAI as
 * `reasoning.effort`). A thinking budget from another protocol becomes the nearest effort.
 */
function encodeReasoning(
  options: ReasoningOptions | undefined,
  kept: unknown,
  context: EncodeContext,
): ResponsesRequestBody['reasoning'] {
  const reasoning: NonNullable<ResponsesRequestBody['reasoning']> = isJsonObject(kept) ? { ...kept } : {};
  if (options?.effort !== undefined) reasoning.effort = options.effort;
  else if (options?.budgetTokens !== undefined) {
    reasoning.effort = effortForBudget(options.budgetTokens);
    context.losses.coerced(
      'reasoning.budget_tokens',
      `a thinking budget of ${options.budgetTokens} tokens is sent as effort ${String(reasoning.effort)}`,
    );
  } else if (options?.enabled === false) reasoning.effort = 'none';
  if (options?.summary !== undefined) reasoning.summary = options.summary;
  else if (options?.includeThoughts === true) reasoning.summary = 'auto';
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

function effortForBudget(budget: number): ReasoningEffort {
  if (budget <= 0) return 'none';
  if (budget <= 2048) return 'low';
  if (budget <= 8192) return 'medium';
  return 'high';
}

/** `text.format` (https://platform.openai.com/docs/guides/structured-outputs), beside any kept `text` members. */
function encodeText(format: ResponseFormat | undefined, kept: unknown): ResponsesRequestBody['text'] {
  const text: NonNullable<ResponsesRequestBody['text']> = isJsonObject(kept) ? { ...kept } : {};
  if (format) text.format = encodeFormat(format);
  return Object.keys(text).length > 0 ? text : undefined;
}

function encodeFormat(format: ResponseFormat): ResponsesTextFormat {
  const type = format.type;
  switch (type) {
    case 'text':
      return { type: 'text' };
    case 'json-object':
      return { type: 'json_object' };
    case 'json-schema': {
      const wire: ResponsesTextFormat = { type: 'json_schema', name: format.name, schema: format.schema };
      if (format.strict !== undefined) wire.strict = format.strict;
      if (format.description !== undefined) wire.description = format.description;
      return wire;
    }
    default: {
      const never: never = type;
      return never;
    }
  }
}
