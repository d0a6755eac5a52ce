import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

/** What a client family got back, whatever its wire format. */
export interface ClientView {
  text: string;
  reasoning: string;
  toolCalls: { name: string; arguments: unknown }[];
}

export type Scenario = 'text' | 'tools' | 'thinking' | 'image';

export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
};

export interface MatrixClients {
  openai: OpenAI;
  anthropic: Anthropic;
  google: GoogleGenAI;
}

export function createClients(origin: string, key: string): MatrixClients {
  return {
    openai: new OpenAI({ apiKey: key, baseURL: `${origin}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: key, baseURL: origin, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: origin } }),
  };
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Drives the gateway with the family's official SDK, JSON or streaming, and reduces the answer to a view. */
export type ClientFamily = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

export async function callFamily(options: {
  family: ClientFamily;
  clients: MatrixClients;
  model: string;
  scenario: Scenario;
  stream: boolean;
}): Promise<ClientView> {
  const { clients, model, scenario, stream } = options;
  const view: ClientView = { text: '', reasoning: '', toolCalls: [] };
  switch (options.family) {
    case 'openai-chat': {
      const content: OpenAI.Chat.ChatCompletionContentPart[] = [{ type: 'text', text: 'What is in Paris?' }];
      if (scenario === 'image')
        content.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } });
      const request: OpenAI.Chat.ChatCompletionCreateParams = {
        model,
        messages: [{ role: 'user', content }],
        max_completion_tokens: 4096,
        ...(scenario === 'tools' && {
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }],
        }),
        ...(scenario === 'thinking' && { reasoning_effort: 'high' }),
      };
      if (!stream) {
        const completion = await clients.openai.chat.completions.create({ ...request, stream: false });
        const message = completion.choices[0]!.message;
        view.text = message.content ?? '';
        view.reasoning = (message as { reasoning_content?: string }).reasoning_content ?? '';
        for (const call of message.tool_calls ?? []) {
          if (call.type === 'function')
            view.toolCalls.push({ name: call.function.name, arguments: parse(call.function.arguments) });
        }
        return view;
      }
      const calls: { name: string; arguments: string }[] = [];
      for await (const chunk of await clients.openai.chat.completions.create({ ...request, stream: true })) {
        const delta = chunk.choices[0]?.delta;
        view.text += delta?.content ?? '';
        view.reasoning += (delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
        for (const call of delta?.tool_calls ?? []) {
          calls[call.index] ??= { name: '', arguments: '' };
          calls[call.index]!.name += call.function?.name ?? '';
          calls[call.index]!.arguments += call.function?.arguments ?? '';
        }
      }
      view.toolCalls = calls.map((call) => ({ name: call.name, arguments: parse(call.arguments) }));
      return view;
    }
    case 'openai-responses': {
      const content: OpenAI.Responses.ResponseInputContent[] = [
        { type: 'input_text', text: 'What is in Paris?' },
      ];
      if (scenario === 'image') {
        content.push({
          type: 'input_image',
          image_url: `data:image/png;base64,${PNG_BASE64}`,
          detail: 'auto',
        });
      }
      const request: Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'> = {
        model,
        input: [{ role: 'user', content }],
        max_output_tokens: 4096,
        ...(scenario === 'tools' && {
          tools: [{ type: 'function', name: 'get_weather', parameters: weatherSchema, strict: false }],
        }),
        ...(scenario === 'thinking' && { reasoning: { effort: 'high', summary: 'auto' } }),
      };
      const response = stream
        ? await clients.openai.responses.stream({ ...request, stream: true }).finalResponse()
        : await clients.openai.responses.create({ ...request, stream: false });
      view.text = response.output_text;
      for (const item of response.output) {
        if (item.type === 'reasoning') view.reasoning += item.summary.map((part) => part.text).join('');
        if (item.type === 'function_call')
          view.toolCalls.push({ name: item.name, arguments: parse(item.arguments) });
      }
      return view;
    }
    case 'anthropic-messages': {
      const content: Anthropic.ContentBlockParam[] = [{ type: 'text', text: 'What is in Paris?' }];
      if (scenario === 'image') {
        content.push({
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
        });
      }
      const request: Anthropic.MessageCreateParamsNonStreaming = {
        model,
        max_tokens: 4096,
        messages: [{ role: 'user', content }],
        ...(scenario === 'tools' && {
          tools: [{ name: 'get_weather', input_schema: weatherSchema as Anthropic.Tool.InputSchema }],
        }),
        ...(scenario === 'thinking' && { thinking: { type: 'enabled', budget_tokens: 2048 } }),
      };
      const message = stream
        ? await clients.anthropic.messages.stream(request).finalMessage()
        : await clients.anthropic.messages.create(request);
      for (const block of message.content) {
        if (block.type === 'text') view.text += block.text;
        if (block.type === 'thinking') view.reasoning += block.thinking;
        if (block.type === 'tool_use') view.toolCalls.push({ name: block.name, arguments: block.input });
      }
      return view;
    }
    case 'gemini': {
      const parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] = [
        { text: 'What is in Paris?' },
      ];
      if (scenario === 'image') parts.push({ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } });
      const request = {
        model,
        contents: [{ role: 'user', parts }],
        config: {
          maxOutputTokens: 4096,
          ...(scenario === 'tools' && {
            tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherSchema }] }],
          }),
          ...(scenario === 'thinking' && { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } }),
        },
      };
      const responses = stream
        ? await collect(await clients.google.models.generateContentStream(request))
        : [await clients.google.models.generateContent(request)];
      for (const response of responses) {
        for (const part of response.candidates?.[0]?.content?.parts ?? []) {
          if (part.thought && part.text) view.reasoning += part.text;
          else if (part.text) view.text += part.text;
          if (part.functionCall)
            view.toolCalls.push({ name: part.functionCall.name ?? '', arguments: part.functionCall.args });
        }
      }
      return view;
    }
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
