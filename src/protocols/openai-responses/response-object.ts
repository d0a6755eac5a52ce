import type { OpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import type { JsonObject } from '../wire-json.js';
import type { OpenAIResponsesEnding } from './map-openai-responses-finish-reason.js';
import type {
  ResponsesFunctionCall,
  ResponsesItemStatus,
  ResponsesOutputContent,
  ResponsesOutputItem,
  ResponsesOutputMessage,
  ResponsesOutputText,
  ResponsesResponse,
} from './wire-types.js';

/**
 * The Responses response object (client-api 2.3; https://platform.openai.com/docs/api-reference/responses/object),
 * for replies and for the stream's lifecycle events. Request echo members the gateway does not
 * know are written with the API's defaults; `kept` (the upstream's own, on a Responses upstream)
 * replaces them.
 */
export function buildResponseObject(options: {
  id: string;
  model: string;
  created: number;
  ending: OpenAIResponsesEnding | { status: 'in_progress'; incomplete_details: null; error: null };
  output: ResponsesOutputItem[];
  usage: OpenAIResponsesUsage | null;
  kept?: JsonObject;
}): ResponsesResponse {
  const { ending } = options;
  return {
    id: options.id,
    object: 'response',
    created_at: options.created,
    status: ending.status,
    background: false,
    error: ending.error,
    incomplete_details: ending.incomplete_details,
    instructions: null,
    max_output_tokens: null,
    model: options.model,
    output: options.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    temperature: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage: options.usage,
    metadata: {},
    ...options.kept,
  };
}

export function messageItem(options: {
  id: string;
  status: ResponsesItemStatus;
  content: (ResponsesOutputContent | JsonObject)[];
}): ResponsesOutputMessage {
  return {
    id: options.id,
    type: 'message',
    status: options.status,
    content: options.content,
    role: 'assistant',
  };
}

export function outputText(text: string): ResponsesOutputText {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function functionCallItem(options: {
  id: string;
  status: ResponsesItemStatus;
  callId: string;
  name: string;
  arguments: string;
}): ResponsesFunctionCall {
  return {
    id: options.id,
    type: 'function_call',
    status: options.status,
    arguments: options.arguments,
    call_id: options.callId,
    name: options.name,
  };
}
