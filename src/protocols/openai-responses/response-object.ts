import type { OpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import type { JsonObject } from '../wire-json.js';
import type { OpenAIResponsesEnding } from './map-openai-responses-finish-reason.js';

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
  output: JsonObject[];
  usage: OpenAIResponsesUsage | null;
  kept?: JsonObject;
}): JsonObject {
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

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export function messageItem(options: { id: string; status: ItemStatus; content: JsonObject[] }): JsonObject {
  return {
    id: options.id,
    type: 'message',
    status: options.status,
    content: options.content,
    role: 'assistant',
  };
}

export function outputText(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function functionCallItem(options: {
  id: string;
  status: ItemStatus;
  callId: string;
  name: string;
  arguments: string;
}): JsonObject {
  return {
    id: options.id,
    type: 'function_call',
    status: options.status,
    arguments: options.arguments,
    call_id: options.callId,
    name: options.name,
  };
}
