import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { canonicalRequest } from './helpers.js';

function encode(overrides: Partial<CanonicalRequest>) {
  const losses = new LossLog();
  const body = codec.encodeRequest(canonicalRequest(overrides), { losses, defaultMaxTokens: 8192 });
  return { body, losses: losses.losses.map((loss) => `${loss.kind} ${loss.path}: ${loss.reason}`) };
}

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const toolLoop: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    role: 'assistant',
    parts: [{ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' }],
  },
  {
    role: 'tool',
    parts: [{ type: 'tool-result', toolCallId: 'call_a', content: [{ type: 'text', text: '18C' }] }],
  },
];

// Conversations other protocols allow that the Messages API refuses as they stand
// (https://docs.anthropic.com/en/api/messages, https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
describe('encodeRequest: conversations Anthropic accepts', () => {
  it('leaves thinking off when a tool loop comes back without the calling turn’s thinking block', () => {
    const { body, losses } = encode({
      messages: toolLoop,
      tools: [weather],
      reasoning: { effort: 'high' },
      maxOutputTokens: 32000,
      temperature: 0.5,
    });
    // Otherwise: "a final `assistant` message must start with a thinking block".
    expect(body).toMatchInlineSnapshot(`
      {
        "max_tokens": 32000,
        "messages": [
          {
            "content": "Weather in Paris?",
            "role": "user",
          },
          {
            "content": [
              {
                "id": "call_a",
                "input": {
                  "city": "Paris",
                },
                "name": "get_weather",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "18C",
                "tool_use_id": "call_a",
                "type": "tool_result",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-test",
        "temperature": 0.5,
        "tools": [
          {
            "input_schema": {
              "properties": {
                "city": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "name": "get_weather",
          },
        ],
      }
    `);
    expect(losses).toEqual([
      'dropped reasoning: Anthropic thinks in a tool loop only when the calling turn comes back with its signed thinking block first, and this one has none: thinking off',
    ]);
  });

  it('leaves thinking off when the calling turn’s thinking was signed by another vendor, and when results come with text', () => {
    const geminiSigned: Message[] = [
      toolLoop[0]!,
      {
        ...toolLoop[1]!,
        parts: [
          { type: 'reasoning', text: 'Look it up.', signature: { issuer: 'gemini', value: 'CiQ' } },
          ...toolLoop[1]!.parts,
        ],
      },
      toolLoop[2]!,
      { role: 'user', parts: [{ type: 'text', text: 'Quick, please.' }] },
    ];
    const { body, losses } = encode({
      messages: geminiSigned,
      tools: [weather],
      reasoning: { effort: 'low' },
    });
    expect(body.thinking).toBeUndefined();
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "Weather in Paris?",
          "role": "user",
        },
        {
          "content": [
            {
              "id": "call_a",
              "input": {
                "city": "Paris",
              },
              "name": "get_weather",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "content": "18C",
              "tool_use_id": "call_a",
              "type": "tool_result",
            },
            {
              "text": "Quick, please.",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[1].parts[0]: reasoning issued by gemini cannot be sent to Anthropic",
        "dropped reasoning: Anthropic thinks in a tool loop only when the calling turn comes back with its signed thinking block first, and this one has none: thinking off",
      ]
    `);
  });

  it('keeps thinking when the calling turn starts with its signed thinking, or once the loop has ended', () => {
    const signed: Message[] = [
      toolLoop[0]!,
      {
        ...toolLoop[1]!,
        parts: [
          { type: 'reasoning', text: 'Look it up.', signature: { issuer: 'anthropic', value: 'EqSig' } },
          ...toolLoop[1]!.parts,
        ],
      },
      toolLoop[2]!,
    ];
    const replayed = encode({ messages: signed, tools: [weather], reasoning: { effort: 'low' } });
    expect(replayed.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(replayed.losses).toEqual([]);

    const ended: Message[] = [
      ...toolLoop,
      { role: 'assistant', parts: [{ type: 'text', text: '18C in Paris.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
    ];
    const later = encode({ messages: ended, tools: [weather], reasoning: { effort: 'low' } });
    expect(later.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('opens with the user: an assistant greeting before the first user turn is dropped', () => {
    const { body, losses } = encode({
      messages: [
        { role: 'assistant', parts: [{ type: 'text', text: 'How can I help?' }] },
        { role: 'system', parts: [{ type: 'text', text: 'Be terse.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      ],
    });
    // Otherwise: 'messages: first message must use the "user" role'.
    expect(body.system).toBe('Be terse.');
    expect(body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(losses).toContain('dropped messages[0]: an Anthropic conversation opens with a user turn');
  });

  it('leaves out text blocks of whitespace only', () => {
    const { body, losses } = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', parts: [{ type: 'text', text: '\n' }] },
        {
          role: 'user',
          parts: [
            { type: 'text', text: ' ' },
            { type: 'text', text: 'Well?' },
          ],
        },
      ],
    });
    // Otherwise: "messages: text content blocks must contain non-whitespace text".
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'Well?' },
        ],
      },
    ]);
    expect(losses).toEqual([
      'dropped messages[1].parts[0]: Anthropic rejects text blocks of whitespace only',
      'dropped messages[1]: Anthropic refuses a message without content',
      'dropped messages[2].parts[0]: Anthropic rejects text blocks of whitespace only',
    ]);
  });

  it('drops messages left without content, and merges the turns around them', () => {
    const { body, losses } = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', parts: [{ type: 'reasoning', text: 'unsigned thoughts' }] },
        { role: 'user', parts: [] },
        { role: 'user', parts: [{ type: 'text', text: '' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Still there?' }] },
      ],
    });
    // Otherwise: "all messages must have non-empty content except for the optional final assistant message".
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "hi",
              "type": "text",
            },
            {
              "text": "Still there?",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[1].parts[0]: reasoning without a signature cannot be sent back to Anthropic",
        "dropped messages[1]: Anthropic refuses a message without content",
        "dropped messages[2]: Anthropic refuses a message without content",
        "dropped messages[3].parts[0]: Anthropic rejects empty text blocks",
        "dropped messages[3]: Anthropic refuses a message without content",
      ]
    `);
  });

  it('trims the trailing whitespace of a final assistant message (a prefill)', () => {
    const { body, losses } = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Write a haiku.' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Here it is:\n\n' }] },
      ],
    });
    // Otherwise: "final assistant content cannot end with trailing whitespace".
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "Write a haiku.",
          "role": "user",
        },
        {
          "content": "Here it is:",
          "role": "assistant",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "coerced messages[1]: Anthropic refuses a final assistant message ending in whitespace: trailing whitespace trimmed",
      ]
    `);
  });
});
