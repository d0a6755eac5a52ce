import type Anthropic from '@anthropic-ai/sdk';
import type { Content, FunctionCallingConfigMode, GenerateContentResponse, Part } from '@google/genai';
import type OpenAI from 'openai';
import type { ClientFamily, MatrixClients } from './matrix-clients.js';

/**
 * Multi-turn agent traffic through each family's official SDK, written as the SDKs' users write
 * it: the first turn's assistant message goes back exactly as the SDK returned it (chat: the
 * `message` object; responses: the `output` items; Anthropic: the `content` blocks; Gemini: the
 * candidate's `content`), followed by the tool's result.
 */

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
};
export const QUESTION = 'What is the weather in Paris?';
export const TOOL_RESULT = '18 degrees and sunny';

/** What one turn gave back, whatever the family. */
export interface TurnResult {
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  /** The family's finish value as its SDK shows it (chat `finish_reason`, Anthropic `stop_reason`...). */
  finish: string | undefined;
  /** The assistant turn, in the family's own history form, as the SDK returned it. */
  history: unknown[];
}

export interface TurnOptions {
  family: ClientFamily;
  clients: MatrixClients;
  model: string;
  stream: boolean;
  thinking: boolean;
  /** Force a call of `get_weather`. */
  forceTool?: boolean;
  /** The conversation before this turn, in the family's history form; the question when empty. */
  history?: unknown[];
}

/** The question as the first history entry of the family. */
export function questionHistory(family: ClientFamily): unknown[] {
  switch (family) {
    case 'openai-chat':
      return [{ role: 'user', content: QUESTION }];
    case 'openai-responses':
      return [{ role: 'user', content: QUESTION }];
    case 'anthropic-messages':
      return [{ role: 'user', content: QUESTION }];
    case 'gemini':
      return [{ role: 'user', parts: [{ text: QUESTION }] }];
  }
}

/** The tool's answer to every call of a turn, in the family's history form. */
export function toolResultHistory(family: ClientFamily, turn: TurnResult): unknown[] {
  switch (family) {
    case 'openai-chat':
      return turn.toolCalls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: TOOL_RESULT }));
    case 'openai-responses':
      return turn.toolCalls.map((call) => ({
        type: 'function_call_output',
        call_id: call.id,
        output: TOOL_RESULT,
      }));
    case 'anthropic-messages':
      return [
        {
          role: 'user',
          content: turn.toolCalls.map((call) => ({
            type: 'tool_result',
            tool_use_id: call.id,
            content: TOOL_RESULT,
          })),
        },
      ];
    case 'gemini':
      return [
        {
          role: 'user',
          parts: turn.toolCalls.map((call) => ({
            functionResponse: {
              ...(call.id && { id: call.id }),
              name: call.name,
              response: { output: TOOL_RESULT },
            },
          })),
        },
      ];
  }
}

export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const history = options.history ?? questionHistory(options.family);
  switch (options.family) {
    case 'openai-chat':
      return chatTurn(options, history as OpenAI.Chat.ChatCompletionMessageParam[]);
    case 'openai-responses':
      return responsesTurn(options, history as OpenAI.Responses.ResponseInput);
    case 'anthropic-messages':
      return messagesTurn(options, history as Anthropic.MessageParam[]);
    case 'gemini':
      return geminiTurn(options, history as Content[]);
  }
}

async function chatTurn(
  options: TurnOptions,
  messages: OpenAI.Chat.ChatCompletionMessageParam[],
): Promise<TurnResult> {
  const request: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
    model: options.model,
    messages,
    max_completion_tokens: 4096,
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }],
    ...(options.thinking && { reasoning_effort: 'high' }),
    ...(options.forceTool && { tool_choice: { type: 'function', function: { name: 'get_weather' } } }),
  };
  const completion = options.stream
    ? await options.clients.openai.chat.completions.stream({ ...request, stream: true }).finalChatCompletion()
    : await options.clients.openai.chat.completions.create(request);
  const choice = completion.choices[0]!;
  const message = choice.message as OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string };
  return {
    text: message.content ?? '',
    reasoning: message.reasoning_content ?? '',
    toolCalls: (message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function'
        ? [{ id: call.id, name: call.function.name, arguments: parse(call.function.arguments) }]
        : [],
    ),
    finish: choice.finish_reason,
    history: [message],
  };
}

async function responsesTurn(
  options: TurnOptions,
  input: OpenAI.Responses.ResponseInput,
): Promise<TurnResult> {
  const request: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
    model: options.model,
    input,
    max_output_tokens: 4096,
    tools: [{ type: 'function', name: 'get_weather', parameters: weatherSchema, strict: false }],
    ...(options.thinking && { reasoning: { effort: 'high', summary: 'auto' } }),
    ...(options.forceTool && { tool_choice: { type: 'function', name: 'get_weather' } }),
  };
  const response = options.stream
    ? await options.clients.openai.responses.stream({ ...request, stream: true }).finalResponse()
    : await options.clients.openai.responses.create(request);
  const result: TurnResult = {
    text: response.output_text,
    reasoning: '',
    toolCalls: [],
    finish: response.incomplete_details?.reason ?? response.status,
    history: response.output,
  };
  for (const item of response.output) {
    if (item.type === 'reasoning') result.reasoning += item.summary.map((part) => part.text).join('');
    if (item.type === 'function_call')
      result.toolCalls.push({ id: item.call_id, name: item.name, arguments: parse(item.arguments) });
  }
  return result;
}

async function messagesTurn(options: TurnOptions, messages: Anthropic.MessageParam[]): Promise<TurnResult> {
  const request: Anthropic.MessageCreateParamsNonStreaming = {
    model: options.model,
    max_tokens: 4096,
    messages,
    tools: [{ name: 'get_weather', input_schema: weatherSchema as Anthropic.Tool.InputSchema }],
    ...(options.thinking && { thinking: { type: 'enabled', budget_tokens: 2048 } }),
    ...(options.forceTool && { tool_choice: { type: 'tool', name: 'get_weather' } }),
  };
  const message = options.stream
    ? await options.clients.anthropic.messages.stream(request).finalMessage()
    : await options.clients.anthropic.messages.create(request);
  const result: TurnResult = {
    text: '',
    reasoning: '',
    toolCalls: [],
    finish: message.stop_reason ?? undefined,
    history: [{ role: 'assistant', content: message.content }],
  };
  for (const block of message.content) {
    if (block.type === 'text') result.text += block.text;
    if (block.type === 'thinking') result.reasoning += block.thinking;
    if (block.type === 'tool_use')
      result.toolCalls.push({ id: block.id, name: block.name, arguments: block.input });
  }
  return result;
}

async function geminiTurn(options: TurnOptions, contents: Content[]): Promise<TurnResult> {
  const request = {
    model: options.model,
    contents,
    config: {
      maxOutputTokens: 4096,
      tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherSchema }] }],
      ...(options.thinking && { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } }),
      ...(options.forceTool && {
        toolConfig: {
          functionCallingConfig: {
            mode: 'ANY' as FunctionCallingConfigMode,
            allowedFunctionNames: ['get_weather'],
          },
        },
      }),
    },
  };
  const responses: GenerateContentResponse[] = [];
  if (options.stream) {
    for await (const chunk of await options.clients.google.models.generateContentStream(request))
      responses.push(chunk);
  } else {
    responses.push(await options.clients.google.models.generateContent(request));
  }
  // A streamed turn goes back as one content holding every chunk's parts, in order.
  const parts: Part[] = responses.flatMap((response) => response.candidates?.[0]?.content?.parts ?? []);
  const result: TurnResult = {
    text: '',
    reasoning: '',
    toolCalls: [],
    finish: responses.map((response) => response.candidates?.[0]?.finishReason).findLast(Boolean),
    history: [{ role: 'model', parts }],
  };
  for (const part of parts) {
    if (part.thought && part.text) result.reasoning += part.text;
    else if (part.text) result.text += part.text;
    if (part.functionCall)
      result.toolCalls.push({
        id: part.functionCall.id ?? '',
        name: part.functionCall.name ?? '',
        arguments: part.functionCall.args,
      });
  }
  return result;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
