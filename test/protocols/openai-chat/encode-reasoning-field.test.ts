import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { anthropicMessagesCodec } from '../../../src/protocols/anthropic-messages/codec.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import type { ChatReasoningField } from '../../../src/protocols/protocol-codec.js';

/**
 * A Messages client's history with thinking, sent to a chat completions upstream that declares the
 * member it takes reasoning back in (`chatReasoningField`), or none (OpenAI).
 */

const weatherTool = {
  name: 'get_weather',
  description: 'Weather of a city.',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/**
 * Three user turns: one with a tool loop and a final answer, one answered without tools, and the
 * ongoing one, inside its tool loop. Turn 1 came from Claude (signed), the others from a chat
 * upstream through the gateway (empty signatures), one with redacted thinking.
 */
const messagesBody = {
  model: 'deepseek-reasoner',
  max_tokens: 4096,
  thinking: { type: 'enabled', budget_tokens: 2048 },
  tools: [weatherTool],
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Paris: call the tool.', signature: 'EqQBCkgIARABGAIiQ' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Sunny, 24°C' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Sunny: say so.', signature: '' },
        { type: 'text', text: 'Sunny in Paris, 24°C.' },
      ],
    },
    { role: 'user', content: 'Thanks! A joke?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'A short one.', signature: '' },
        { type: 'text', text: 'Why did the cloud stay home? It was feeling under the weather.' },
      ],
    },
    { role: 'user', content: 'And Rome?' },
    {
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' },
        { type: 'thinking', thinking: 'Rome: call the tool again.', signature: '' },
        { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Rome' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: 'Cloudy, 19°C' }] },
  ],
};

function encode(chatReasoningField?: ChatReasoningField) {
  const request = anthropicMessagesCodec.decodeRequest(messagesBody, { losses: new LossLog() });
  const losses = new LossLog();
  const body = openAIChatCodec.encodeRequest(request, {
    losses,
    defaultMaxTokens: 8192,
    ...(chatReasoningField && { chatReasoningField }),
  });
  const reasoningLosses = losses.losses.filter((loss) => loss.path.startsWith('messages['));
  return { body, losses: reasoningLosses };
}

/** The assistant messages as sent, for the assertions on which carry reasoning. */
function assistants(body: Record<string, unknown>): Record<string, unknown>[] {
  const messages = body.messages as Record<string, unknown>[];
  return messages.filter((message) => message.role === 'assistant');
}

describe('reasoning_content (DeepSeek and the vendors of that member)', () => {
  test('goes back for the turns with tool calls, the ongoing loop and the earlier one; not for a turn without', () => {
    const { body, losses } = encode('reasoning_content');
    expect(body).toMatchInlineSnapshot(`
      {
        "max_completion_tokens": 4096,
        "messages": [
          {
            "content": "Weather in Paris?",
            "role": "user",
          },
          {
            "content": null,
            "reasoning_content": "Paris: call the tool.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"city":"Paris"}",
                  "name": "get_weather",
                },
                "id": "toolu_01",
                "type": "function",
              },
            ],
          },
          {
            "content": "Sunny, 24°C",
            "role": "tool",
            "tool_call_id": "toolu_01",
          },
          {
            "content": "Sunny in Paris, 24°C.",
            "reasoning_content": "Sunny: say so.",
            "role": "assistant",
          },
          {
            "content": "Thanks! A joke?",
            "role": "user",
          },
          {
            "content": "Why did the cloud stay home? It was feeling under the weather.",
            "role": "assistant",
          },
          {
            "content": "And Rome?",
            "role": "user",
          },
          {
            "content": null,
            "reasoning_content": "Rome: call the tool again.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"city":"Rome"}",
                  "name": "get_weather",
                },
                "id": "toolu_02",
                "type": "function",
              },
            ],
          },
          {
            "content": "Cloudy, 19°C",
            "role": "tool",
            "tool_call_id": "toolu_02",
          },
        ],
        "model": "deepseek-reasoner",
        "reasoning_effort": "low",
        "tools": [
          {
            "function": {
              "description": "Weather of a city.",
              "name": "get_weather",
              "parameters": {
                "properties": {
                  "city": {
                    "type": "string",
                  },
                },
                "required": [
                  "city",
                ],
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
    expect(losses).toEqual([
      {
        path: 'messages[1].parts[0].signature',
        kind: 'dropped',
        reason: 'chat completions upstreams take no reasoning signature',
      },
      {
        path: 'messages[7].parts[0].redactedData',
        kind: 'dropped',
        reason: 'chat completions upstreams take no redacted reasoning',
      },
      {
        path: 'messages[5].parts[0]',
        kind: 'dropped',
        reason: 'reasoning_content goes back only for turns with tool calls',
      },
    ]);
  });

  test('a conversation without tool calls sends none, whatever the chat client sent', () => {
    const losses = new LossLog();
    const request = openAIChatCodec.decodeRequest(
      {
        model: 'deepseek-reasoner',
        messages: [
          { role: 'user', content: '9.11 and 9.8, which is greater?' },
          { role: 'assistant', content: '9.8', reasoning_content: 'Compare the tenths.' },
          { role: 'user', content: 'Why?' },
        ],
      },
      { losses },
    );
    const body = openAIChatCodec.encodeRequest(request, {
      losses,
      defaultMaxTokens: 8192,
      chatReasoningField: 'reasoning_content',
    });
    expect(assistants(body)).toEqual([{ role: 'assistant', content: '9.8' }]);
    expect(losses.losses).toEqual([
      {
        path: 'messages[1].parts[0]',
        kind: 'dropped',
        reason: 'reasoning_content goes back only for turns with tool calls',
      },
    ]);
    // Without the option, a chat client's reasoning_content goes back as it came, as before.
    const unchanged = openAIChatCodec.encodeRequest(request, {
      losses: new LossLog(),
      defaultMaxTokens: 8192,
    });
    expect(assistants(unchanged)).toEqual([
      { role: 'assistant', content: '9.8', reasoning_content: 'Compare the tenths.' },
    ]);
  });

  test('a tool result that carries a file starts no turn of its own in the rule', () => {
    const request = anthropicMessagesCodec.decodeRequest(
      {
        model: 'deepseek-reasoner',
        max_tokens: 1024,
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather map of Paris?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Fetch the map.', signature: '' },
              { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_01',
                content: [
                  { type: 'text', text: 'Map attached.' },
                  {
                    type: 'image',
                    source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
                  },
                ],
              },
            ],
          },
        ],
      },
      { losses: new LossLog() },
    );
    const body = openAIChatCodec.encodeRequest(request, {
      losses: new LossLog(),
      defaultMaxTokens: 8192,
      chatReasoningField: 'reasoning_content',
    });
    // The image follows the tool message as a user message; the call's reasoning still goes back.
    expect((body.messages as Record<string, unknown>[]).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    expect(assistants(body)[0]).toMatchObject({ reasoning_content: 'Fetch the map.' });
  });
});

describe('reasoning (OpenRouter, Groq)', () => {
  test('goes back on every assistant turn', () => {
    const { body, losses } = encode('reasoning');
    expect(assistants(body)).toMatchInlineSnapshot(`
      [
        {
          "content": null,
          "reasoning": "Paris: call the tool.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Paris"}",
                "name": "get_weather",
              },
              "id": "toolu_01",
              "type": "function",
            },
          ],
        },
        {
          "content": "Sunny in Paris, 24°C.",
          "reasoning": "Sunny: say so.",
          "role": "assistant",
        },
        {
          "content": "Why did the cloud stay home? It was feeling under the weather.",
          "reasoning": "A short one.",
          "role": "assistant",
        },
        {
          "content": null,
          "reasoning": "Rome: call the tool again.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Rome"}",
                "name": "get_weather",
              },
              "id": "toolu_02",
              "type": "function",
            },
          ],
        },
      ]
    `);
    expect(losses.map((loss) => loss.path)).toEqual([
      'messages[1].parts[0].signature',
      'messages[7].parts[0].redactedData',
    ]);
  });
});

describe('no reasoning member (OpenAI, Azure)', () => {
  test('every reasoning part is dropped and recorded, as before', () => {
    const { body, losses } = encode();
    expect(assistants(body)).toMatchInlineSnapshot(`
      [
        {
          "content": null,
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Paris"}",
                "name": "get_weather",
              },
              "id": "toolu_01",
              "type": "function",
            },
          ],
        },
        {
          "content": "Sunny in Paris, 24°C.",
          "role": "assistant",
        },
        {
          "content": "Why did the cloud stay home? It was feeling under the weather.",
          "role": "assistant",
        },
        {
          "content": null,
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"city":"Rome"}",
                "name": "get_weather",
              },
              "id": "toolu_02",
              "type": "function",
            },
          ],
        },
      ]
    `);
    expect(losses).toEqual([
      {
        path: 'messages[1].parts[0]',
        kind: 'dropped',
        reason: 'chat completions takes no reasoning back; its signature is lost',
      },
      { path: 'messages[3].parts[0]', kind: 'dropped', reason: 'chat completions takes no reasoning back' },
      { path: 'messages[5].parts[0]', kind: 'dropped', reason: 'chat completions takes no reasoning back' },
      {
        path: 'messages[7].parts[0]',
        kind: 'dropped',
        reason: 'chat completions takes no reasoning back; its signature is lost',
      },
      { path: 'messages[7].parts[1]', kind: 'dropped', reason: 'chat completions takes no reasoning back' },
    ]);
  });
});
