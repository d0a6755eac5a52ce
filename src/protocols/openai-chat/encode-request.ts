import type { LossLog } from '../../ir/loss.js';
import type {
  CanonicalRequest,
  ReasoningEffort,
  ReasoningOptions,
  ResponseFormat,
} from '../../ir/request.js';
import type { EncodeRequestOptions } from '../protocol-codec.js';
import { encodeMessages } from './encode-messages.js';
import { encodeToolChoice, encodeTools } from './encode-tools.js';
import { isJsonObject, setOwnMember } from '../wire-json.js';
import { readRequestExtension } from './openai-chat-extension.js';
import type { OpenAIChatRequest, OpenAIChatResponseFormat } from './wire-types.js';

/**
 * Canonical -> a chat completions request for an OpenAI-compatible upstream
 * (https://platform.openai.com/docs/api-reference/chat/create). Streams always ask for the usage
 * chunk (`stream_options.include_usage`): the gateway settles on it.
 */
export function encodeOpenAIChatRequest(
  request: CanonicalRequest,
  options: EncodeRequestOptions,
): OpenAIChatRequest {
  const { losses } = options;
  const extension = readRequestExtension(request.extensions);
  const fields = extension.fields ?? {};
  const body: OpenAIChatRequest = {
    model: request.model,
    messages: encodeMessages(request, {
      losses,
      breakpoints: extension.promptCacheBreakpoints === true,
      extension,
      reasoningField: options.chatReasoningField,
    }),
  };

  const { tools, webSearchOptions } = encodeTools(request.tools, losses);
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  } else if (request.toolChoice?.type === 'required' || request.toolChoice?.type === 'tool') {
    losses.dropped('toolChoice', 'chat completions takes tool_choice only with tools');
  }

  if (request.maxOutputTokens !== undefined) {
    if (extension.maxTokensField === 'max_tokens') body.max_tokens = request.maxOutputTokens;
    else body.max_completion_tokens = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) {
    if (extension.topK) body.top_k = request.topK;
    else losses.dropped('topK', 'chat completions has no top_k');
  }
  if (request.stop !== undefined) body.stop = request.stop;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.responseFormat) body.response_format = encodeResponseFormat(request.responseFormat);
  const effort = encodeReasoning(request.reasoning, losses);
  if (effort) body.reasoning_effort = effort;
  if (webSearchOptions) body.web_search_options = webSearchOptions;
  if (request.user !== undefined) body.user = request.user;
  if (request.stream) {
    body.stream = true;
    const streamOptions = isJsonObject(fields.stream_options) ? fields.stream_options : {};
    body.stream_options = { ...streamOptions, include_usage: true };
  }

  for (const [key, value] of Object.entries(fields)) {
    if (!(key in body) && key !== 'stream_options') setOwnMember(body, key, value);
  }
  return body;
}

/** https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format */
function encodeResponseFormat(format: ResponseFormat): OpenAIChatResponseFormat {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json-object':
      return { type: 'json_object' };
    case 'json-schema':
      return {
        type: 'json_schema',
        json_schema: {
          name: format.name,
          ...(format.description !== undefined && { description: format.description }),
          schema: format.schema,
          ...(format.strict !== undefined && { strict: format.strict }),
        },
      };
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}

/** The effort each thinking budget reaches at most (admin-api section 4, read backwards). */
const budgetCeilings: [ReasoningEffort, number][] = [
  ['none', 0],
  ['minimal', 1024],
  ['low', 2048],
  ['medium', 8192],
  ['high', 24576],
];

/**
 * `reasoning_effort` (https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort).
 * A thinking budget without an effort goes as the smallest effort whose budget covers it.
 */
function encodeReasoning(
  reasoning: ReasoningOptions | undefined,
  losses: LossLog,
): ReasoningEffort | undefined {
  if (!reasoning) return undefined;
  let effort = reasoning.effort;
  if (reasoning.budgetTokens !== undefined) {
    if (effort)
      losses.dropped('reasoning.budgetTokens', 'reasoning_effort is set; chat completions takes no budget');
    else {
      const budget = reasoning.budgetTokens;
      effort = budgetCeilings.find(([, ceiling]) => budget <= ceiling)?.[0] ?? 'xhigh';
      losses.coerced(
        'reasoning.budgetTokens',
        `a budget of ${budget} tokens goes as reasoning_effort ${effort}`,
      );
    }
  }
  if (!effort && reasoning.enabled === false)
    losses.dropped(
      'reasoning.enabled',
      'without an effort, reasoning cannot be switched off here; the model default applies',
    );
  if (reasoning.includeThoughts)
    losses.dropped('reasoning.includeThoughts', 'chat completions cannot ask for reasoning text');
  if (reasoning.summary) losses.dropped('reasoning.summary', 'chat completions has no reasoning summary');
  return effort;
}
