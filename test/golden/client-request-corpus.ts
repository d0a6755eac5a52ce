import type { ProtocolName } from '../../src/protocols/protocol-codec.js';
import { redactThinking, signThinking } from '../fakes/anthropic-messages-reply.js';
import { issueThoughtSignature } from '../fakes/gemini-generate-reply.js';
import { issueEncryptedContent } from '../fakes/openai-responses-reply.js';
import { PNG_BASE64 } from './matrix-clients.js';

/**
 * Client requests each API accepts, of the kinds long conversations hold: system prompts in
 * several places, parallel tool calls and their results, reasoning to replay, images, files and
 * odd but valid corners (empty assistant text, an assistant turn first, whitespace).
 */
export interface ClientRequest {
  name: string;
  protocol: ProtocolName;
  body: Record<string, unknown>;
  /** An effort modifier on the model name (`model@high`). */
  effort?: 'none' | 'low' | 'high';
}

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
  additionalProperties: false,
};
const dataUrl = `data:image/png;base64,${PNG_BASE64}`;

const chatTools = [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }];
const chatToolTurns = [
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_a', content: '18C' },
  { role: 'tool', tool_call_id: 'call_b', content: '' },
];

const openaiChat: ClientRequest[] = [
  {
    name: 'system, developer, tool round trip, follow-up',
    protocol: 'openai-chat',
    body: {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: 'Answer in English.' },
        ...chatToolTurns,
        { role: 'assistant', content: 'Paris 18C, Rome unknown.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Thanks' },
            { type: 'image_url', image_url: { url: dataUrl } },
          ],
        },
      ],
      tools: chatTools,
      tool_choice: 'required',
      temperature: 1.5,
      max_tokens: 4096,
      stop: ['END', 'STOP'],
    },
  },
  {
    name: 'a tool loop that ends on tool results, with reasoning on',
    protocol: 'openai-chat',
    body: {
      model: 'm',
      messages: chatToolTurns,
      tools: chatTools,
      reasoning_effort: 'high',
      max_completion_tokens: 8000,
    },
  },
  {
    name: 'a tool loop with DeepSeek-style reasoning_content, reasoning on',
    protocol: 'openai-chat',
    body: {
      model: 'm',
      messages: [
        chatToolTurns[0],
        { ...chatToolTurns[1], reasoning_content: 'Two cities, two calls.' },
        ...chatToolTurns.slice(2),
      ],
      tools: chatTools,
      reasoning_effort: 'low',
    },
  },
  {
    name: 'a developer message in the middle of the conversation',
    protocol: 'openai-chat',
    body: {
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'developer', content: 'From now on, answer in French.' },
        { role: 'user', content: 'How are you?' },
      ],
    },
  },
  {
    name: 'an assistant turn first, empty assistant text, whitespace',
    protocol: 'openai-chat',
    body: {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'assistant', content: 'How can I help?' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '' },
        { role: 'user', content: ' ' },
        { role: 'assistant', content: '\n' },
        { role: 'user', content: 'Well?' },
      ],
    },
  },
  {
    name: 'consecutive assistant messages, the second calling a tool',
    protocol: 'openai-chat',
    body: {
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: 'Let me check.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [chatToolTurns[1]!.tool_calls![0]],
        },
        { role: 'tool', tool_call_id: 'call_a', content: [{ type: 'text', text: '18C' }] },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot say more.' }] },
        {
          role: 'user',
          content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }],
        },
      ],
      tools: chatTools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      reasoning_effort: 'minimal',
      max_tokens: 1000,
      n: 1,
      seed: 3,
    },
  },
  {
    name: 'an image link, a file and a JSON schema answer, with an effort modifier',
    protocol: 'openai-chat',
    effort: 'high',
    body: {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe.' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'high' } },
            {
              type: 'file',
              file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
            },
          ],
        },
      ],
      temperature: 0.2,
      top_p: 0.5,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object', properties: {} } },
      },
    },
  },
];

const responsesTools = [{ type: 'function', name: 'get_weather', parameters: weatherSchema, strict: true }];

const openaiResponses: ClientRequest[] = [
  {
    name: 'reasoning, function calls and outputs, follow-up',
    effort: 'none',
    protocol: 'openai-responses',
    body: {
      model: 'm',
      instructions: 'Be terse.',
      input: [
        { role: 'developer', content: 'Answer in English.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris and Rome?' }] },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Two cities.' }],
          encrypted_content: issueEncryptedContent('rs_1'),
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        {
          type: 'function_call',
          id: 'fc_2',
          call_id: 'call_2',
          name: 'get_weather',
          arguments: '{"city":"Rome"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
        { type: 'function_call_output', call_id: 'call_2', output: '24C' },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Rome is warmer.', annotations: [] }],
        },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'And this?' },
            { type: 'input_image', image_url: dataUrl, detail: 'auto' },
          ],
        },
      ],
      tools: responsesTools,
      reasoning: { effort: 'medium', summary: 'auto' },
      max_output_tokens: 2048,
    },
  },
  {
    name: 'text, then a function call, then encrypted reasoning without a summary',
    protocol: 'openai-responses',
    body: {
      model: 'm',
      input: [
        { role: 'user', content: 'Weather in Paris, then Rome?' },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Checking Paris.', annotations: [] }],
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: [
            { type: 'input_text', text: '18C' },
            { type: 'input_image', image_url: dataUrl, detail: 'low' },
          ],
        },
        { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: issueEncryptedContent('rs_2') },
        {
          type: 'function_call',
          id: 'fc_2',
          call_id: 'call_2',
          name: 'get_weather',
          arguments: '{"city":"Rome"}',
        },
        { type: 'function_call_output', call_id: 'call_2', output: '24C' },
        { role: 'developer', content: 'Answer in one line.' },
        { role: 'user', content: [{ type: 'input_file', file_id: 'file-abc' }] },
      ],
      tools: responsesTools,
      tool_choice: 'required',
      parallel_tool_calls: true,
      temperature: 0.3,
      text: { format: { type: 'json_object' } },
    },
  },
  {
    name: 'a tool loop that ends on function outputs, with reasoning on',
    protocol: 'openai-responses',
    body: {
      model: 'm',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
      ],
      tools: responsesTools,
      reasoning: { effort: 'high' },
    },
  },
];

const anthropicTools = [
  {
    name: 'get_weather',
    description: 'Weather',
    input_schema: weatherSchema,
    cache_control: { type: 'ephemeral' },
  },
];

const anthropic: ClientRequest[] = [
  {
    name: 'thinking, parallel tool use, results with an image and an error, follow-up text',
    effort: 'low',
    protocol: 'anthropic-messages',
    body: {
      model: 'm',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 4000 },
      system: [{ type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral' } }],
      tools: anthropicTools,
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two cities.', signature: signThinking('Two cities.') },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01',
              content: [
                { type: 'text', text: '18C' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
              ],
            },
            { type: 'tool_result', tool_use_id: 'toolu_02', content: 'service down', is_error: true },
            { type: 'text', text: 'Which one is warmer?' },
          ],
        },
      ],
    },
  },
  {
    name: 'a tool loop that ends on tool results, with thinking replayed',
    protocol: 'anthropic-messages',
    body: {
      model: 'm',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: anthropicTools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Look it up.', signature: signThinking('Look it up.') },
            { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [] }] },
      ],
    },
  },
  {
    name: 'server tools, redacted thinking, a document in a tool result, a mid-conversation system message',
    protocol: 'anthropic-messages',
    body: {
      model: 'm',
      max_tokens: 1024,
      tools: [...anthropicTools, { type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'News about Paris weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: redactThinking('corpus') },
            {
              type: 'server_tool_use',
              id: 'srvtoolu_01',
              name: 'web_search',
              input: { query: 'Paris weather' },
            },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_01',
              content: [
                {
                  type: 'web_search_result',
                  url: 'https://example.com',
                  title: 'Weather',
                  encrypted_content: 'x',
                },
              ],
            },
            { type: 'text', text: 'It is sunny.' },
            { type: 'tool_use', id: 'toolu_03', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_03',
              content: [
                {
                  type: 'document',
                  source: { type: 'text', media_type: 'text/plain', data: 'Forecast: sun.' },
                },
              ],
            },
          ],
        },
        { role: 'assistant', content: 'Sunny all week.' },
        { role: 'system', content: 'Keep answers short.' },
        {
          role: 'user',
          content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/sky.png' } }],
        },
      ],
    },
  },
  {
    name: 'documents, a prefilled answer and sampling',
    protocol: 'anthropic-messages',
    body: {
      model: 'm',
      max_tokens: 300,
      temperature: 0.7,
      top_k: 40,
      stop_sequences: ['END'],
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' },
            },
            { type: 'text', text: 'Summarise, as JSON.' },
          ],
        },
        { role: 'assistant', content: '{' },
      ],
    },
  },
];

const geminiTools = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
      },
    ],
  },
];

const gemini: ClientRequest[] = [
  {
    name: 'thought signatures, parallel function calls, responses, follow-up',
    effort: 'high',
    protocol: 'gemini',
    body: {
      systemInstruction: { parts: [{ text: 'Be terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Two cities.', thought: true },
            {
              functionCall: { name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: issueThoughtSignature('corpus-call'),
            },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: '18C' } } },
            { functionResponse: { name: 'get_weather', response: { error: 'service down' } } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Paris is 18C.' },
            { text: '', thoughtSignature: issueThoughtSignature('corpus-text') },
          ],
        },
        {
          role: 'user',
          parts: [{ text: 'And this?' }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }],
        },
      ],
      tools: geminiTools,
      generationConfig: {
        temperature: 0.4,
        maxOutputTokens: 4096,
        thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 },
      },
    },
  },
  {
    name: 'a tool loop that ends on function responses, with thinking on',
    protocol: 'gemini',
    body: {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '18C' } } }] },
      ],
      tools: geminiTools,
      generationConfig: { thinkingConfig: { thinkingBudget: 4096 } },
    },
  },
  {
    name: 'a function response turn with text, code execution parts, a function calling config',
    protocol: 'gemini',
    body: {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris? Then compute 2+2.' }] },
        {
          role: 'model',
          parts: [
            { executableCode: { language: 'PYTHON', code: 'print(2+2)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '4' } },
            { text: 'Now the weather.' },
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: '18C' } } },
            { text: 'Also, be brief.' },
          ],
        },
      ],
      tools: [...geminiTools, { codeExecution: {} }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: {
        candidateCount: 1,
        presencePenalty: 0.5,
        seed: 1,
        thinkingConfig: { thinkingBudget: 0 },
      },
    },
  },
  {
    name: 'a model turn first, a file link and a JSON schema answer',
    protocol: 'gemini',
    body: {
      contents: [
        { role: 'model', parts: [{ text: 'How can I help?' }] },
        {
          role: 'user',
          parts: [
            { text: 'Summarise this.' },
            { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
          ],
        },
      ],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { summary: { type: 'STRING' } } },
        stopSequences: ['END'],
        topK: 40,
      },
    },
  },
];

export const clientRequests: ClientRequest[] = [...openaiChat, ...openaiResponses, ...anthropic, ...gemini];
