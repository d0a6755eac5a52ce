/**
 * Responses wire shapes as the gateway writes them, after `ResponseCreateParams`, `ResponseInputItem`,
 * `Response`, `ResponseOutputItem` and `ResponseStreamEvent` in openai/resources/responses/responses.d.ts
 * (https://platform.openai.com/docs/api-reference/responses). Members a Responses client sent that
 * the gateway keeps verbatim (item ids, status, phase...) ride beside the typed ones as `Kept`.
 */
import type { JsonObject } from '../wire-json.js';
import type { OpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import type { OpenAIResponsesEnding } from './map-openai-responses-finish-reason.js';

/** Members kept verbatim from a Responses client or upstream, beside the typed ones. */
export type Kept = { [member: string]: unknown };

/** `prompt_cache_breakpoint`: the explicit cache marker of a content part. */
type CacheBreakpoint = { prompt_cache_breakpoint?: { mode: 'explicit' } };

export type ResponsesInputText = { type: 'input_text'; text: string } & CacheBreakpoint;

export type ResponsesInputImage = {
  type: 'input_image';
  image_url?: string;
  file_id?: string;
  detail: 'auto' | 'low' | 'high';
} & CacheBreakpoint;

/** `ResponseInputFile`: a document by data URL (`file_data`), link or uploaded-file id. */
export type ResponsesInputFile = {
  type: 'input_file';
  file_data?: string;
  file_url?: string;
  file_id?: string;
  filename?: string;
  detail?: 'auto' | 'low' | 'high';
} & CacheBreakpoint;

export type ResponsesInputContent = ResponsesInputText | ResponsesInputImage | ResponsesInputFile;

export type ResponsesOutputText = {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs?: unknown[];
};

export type ResponsesRefusal = { type: 'refusal'; refusal: string };

export type ResponsesOutputContent = ResponsesOutputText | ResponsesRefusal;

export type ResponsesInputRole = 'user' | 'assistant' | 'system' | 'developer';

/** A message item; the short form (`{ role, content }`) when it carries no item members. */
export type ResponsesMessageInput =
  | {
      role: ResponsesInputRole;
      content: string | (ResponsesInputContent | ResponsesOutputContent | JsonObject)[];
    }
  | ({
      type: 'message';
      role: ResponsesInputRole;
      content: (ResponsesInputContent | ResponsesOutputContent | JsonObject)[];
    } & Kept);

export type ResponsesSummaryText = { type: 'summary_text'; text: string };

/** `ResponseReasoningItem`: `id` and `summary` are required, also as input. */
export type ResponsesReasoningItem = {
  type: 'reasoning';
  id?: string;
  summary: unknown[];
  content?: unknown[];
  encrypted_content?: string;
} & Kept;

export type ResponsesFunctionCallInput = {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
} & Kept;

export type ResponsesFunctionCallOutput = {
  type: 'function_call_output';
  call_id: string;
  output: string | (ResponsesInputContent | JsonObject)[];
} & Kept;

/** One entry of the request `input`; hosted tool items a client sent travel as `JsonObject`. */
export type ResponsesInputItem =
  | ResponsesMessageInput
  | ResponsesReasoningItem
  | ResponsesFunctionCallInput
  | ResponsesFunctionCallOutput
  | JsonObject;

export type ResponsesFunctionTool = {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonObject;
  strict?: boolean;
} & Kept;

export type ResponsesToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };

/** `ResponseFormatTextConfig`: the json_schema form is flat, its name beside the type. */
export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: JsonObject; strict?: boolean; description?: string };

export type ResponsesReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** A `POST /v1/responses` body; a Responses client's other fields ride along as `Kept`. */
export type ResponsesRequestBody = {
  model: string;
  instructions?: string;
  input?: string | ResponsesInputItem[];
  tools?: (ResponsesFunctionTool | JsonObject)[];
  tool_choice?: ResponsesToolChoice | JsonObject;
  parallel_tool_calls?: boolean;
  max_output_tokens?: number;
  temperature?: number;
  top_p?: number;
  reasoning?: { effort?: ResponsesReasoningEffort; summary?: 'auto' | 'concise' | 'detailed' } & Kept;
  text?: { format?: ResponsesTextFormat } & Kept;
  stream?: true;
  store?: false;
  user?: string;
} & Kept;

export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type ResponsesOutputMessage = {
  id: string;
  type: 'message';
  status: ResponsesItemStatus;
  content: (ResponsesOutputContent | JsonObject)[];
  role: 'assistant';
};

export type ResponsesFunctionCall = {
  id: string;
  type: 'function_call';
  status: ResponsesItemStatus;
  arguments: string;
  call_id: string;
  name: string;
};

/** An output item; hosted tool items of a Responses upstream travel whole as `JsonObject`. */
export type ResponsesOutputItem =
  ResponsesOutputMessage | ResponsesFunctionCall | ResponsesReasoningItem | JsonObject;

/** The `Response` object, for replies and the stream's lifecycle events. */
export type ResponsesResponse = {
  id: string;
  object: 'response';
  created_at: number;
  status: OpenAIResponsesEnding['status'] | 'in_progress';
  background: boolean;
  error: OpenAIResponsesEnding['error'];
  incomplete_details: OpenAIResponsesEnding['incomplete_details'];
  instructions: null;
  max_output_tokens: null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: null;
  reasoning: { effort: null; summary: null };
  temperature: null;
  text: { format: { type: 'text' } };
  tool_choice: 'auto';
  tools: [];
  top_p: null;
  truncation: 'disabled';
  usage: OpenAIResponsesUsage | null;
  metadata: Record<string, never>;
} & Kept;

/** `ResponseErrorEvent`. */
export interface ResponsesErrorEvent {
  code: string | null;
  message: string;
  param: string | null;
}

/** The data of each stream event the gateway writes, by event type, without `type` and `sequence_number`. */
export interface ResponsesStreamEventData {
  'response.created': { response: ResponsesResponse };
  'response.in_progress': { response: ResponsesResponse };
  'response.completed': { response: ResponsesResponse };
  'response.incomplete': { response: ResponsesResponse };
  'response.failed': { response: ResponsesResponse };
  'response.output_item.added': { output_index: number; item: ResponsesOutputItem };
  'response.output_item.done': { output_index: number; item: ResponsesOutputItem };
  'response.content_part.added': ItemAt & { content_index: number; part: ResponsesOutputText };
  'response.content_part.done': ItemAt & { content_index: number; part: ResponsesOutputText };
  'response.output_text.delta': ItemAt & { content_index: number; delta: string; logprobs: [] };
  'response.output_text.done': ItemAt & { content_index: number; text: string; logprobs: [] };
  'response.reasoning_summary_part.added': SummaryAt & { part: ResponsesSummaryText };
  'response.reasoning_summary_part.done': SummaryAt & { part: ResponsesSummaryText };
  'response.reasoning_summary_text.delta': SummaryAt & { delta: string };
  'response.reasoning_summary_text.done': SummaryAt & { text: string };
  'response.function_call_arguments.delta': ItemAt & { delta: string };
  'response.function_call_arguments.done': ItemAt & { name: string; arguments: string };
  error: ResponsesErrorEvent;
}

export type ResponsesStreamEventType = keyof ResponsesStreamEventData;

interface ItemAt {
  item_id: string;
  output_index: number;
}

interface SummaryAt extends ItemAt {
  summary_index: number;
}
