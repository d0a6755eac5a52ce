import { describe, expect, it } from 'vitest';
import type { IssuedToken, Message, ToolCallPart } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { issueThoughtSignature } from '../../fakes/gemini-generate-reply.js';
import { validateGeminiRequest } from '../../fakes/validate-gemini-request.js';

function encode(messages: Message[]) {
  const losses = new LossLog();
  const body = geminiCodec.encodeRequest(
    { model: 'gemini-3-pro-preview', system: [], messages, tools: [], stream: false, extensions: {} },
    { losses, defaultMaxTokens: 8192 },
  );
  return { body, losses: losses.losses.map((loss) => `${loss.kind} ${loss.path}: ${loss.reason}`) };
}

const question: Message = { role: 'user', parts: [{ type: 'text', text: 'Weather in Paris and Rome?' }] };
const call = (id: string, city: string, signature?: IssuedToken): ToolCallPart => ({
  type: 'tool-call',
  id,
  name: 'get_weather',
  arguments: JSON.stringify({ city }),
  ...(signature && { signature }),
});
const result = (id: string): Message => ({
  role: 'tool',
  parts: [
    { type: 'tool-result', toolCallId: id, name: 'get_weather', content: [{ type: 'text', text: '18C' }] },
  ],
});

// Only the tokens Gemini issued go back to Gemini: another vendor's would be refused as
// "Corrupted thought signature." (https://ai.google.dev/gemini-api/docs/thought-signatures).
describe('gemini encodeRequest: issued tokens', () => {
  it('drops every token another vendor issued, recording each, and keeps Gemini’s byte for byte', () => {
    const { body, losses } = encode([
      question,
      {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            text: 'Claude thinking.',
            signature: { issuer: 'anthropic', value: 'EqQBCkYI' },
          },
          { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' } },
          {
            type: 'reasoning',
            text: 'OpenAI summary.',
            redactedData: { issuer: 'openai', value: 'gAAAAAB' },
          },
          { type: 'reasoning', text: 'Gemini thought.', signature: { issuer: 'gemini', value: 'R2VtaW5p' } },
          call('a', 'Paris', { issuer: 'anthropic', value: 'bm90LWdlbWluaQ==' }),
        ],
      },
      result('a'),
      { role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
    ]);
    expect(body.contents).toMatchInlineSnapshot(`
      [
        {
          "parts": [
            {
              "text": "Weather in Paris and Rome?",
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "text": "Gemini thought.",
              "thought": true,
              "thoughtSignature": "R2VtaW5p",
            },
            {
              "functionCall": {
                "args": {
                  "city": "Paris",
                },
                "name": "get_weather",
              },
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
            {
              "text": "Thanks.",
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[1].parts[0].signature: issued by anthropic; Gemini cannot verify it",
        "dropped messages[1].parts[0]: reasoning without a signature cannot go back to Gemini",
        "dropped messages[1].parts[1].redactedData: issued by anthropic; Gemini cannot verify it",
        "dropped messages[1].parts[2].redactedData: issued by openai; Gemini cannot verify it",
        "dropped messages[1].parts[2]: reasoning without a signature cannot go back to Gemini",
        "dropped messages[1].parts[4].signature: issued by anthropic; Gemini cannot verify it",
      ]
    `);
  });

  it('puts a lone Gemini signature that follows a call onto that call, and one before a call onto it', () => {
    const { body } = encode([
      question,
      {
        role: 'assistant',
        parts: [
          call('a', 'Paris'),
          { type: 'reasoning', text: '', signature: { issuer: 'gemini', value: 'YWZ0ZXI=' } },
          { type: 'text', text: 'And Rome:' },
          { type: 'reasoning', text: '', signature: { issuer: 'gemini', value: 'YmVmb3Jl' } },
          call('b', 'Rome'),
        ],
      },
      { role: 'tool', parts: [...result('a').parts, ...result('b').parts] },
    ]);
    expect(body.contents).toMatchInlineSnapshot(`
      [
        {
          "parts": [
            {
              "text": "Weather in Paris and Rome?",
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "functionCall": {
                "args": {
                  "city": "Paris",
                },
                "name": "get_weather",
              },
              "thoughtSignature": "YWZ0ZXI=",
            },
            {
              "text": "And Rome:",
            },
            {
              "functionCall": {
                "args": {
                  "city": "Rome",
                },
                "name": "get_weather",
              },
              "thoughtSignature": "YmVmb3Jl",
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});

// Gemini 3 refuses a current-turn call without a signature ("Function call is missing a
// thought_signature in functionCall parts"); Google documents a placeholder for history it did
// not sign (https://ai.google.dev/gemini-api/docs/thought-signatures#faqs).
describe('gemini encodeRequest: the current turn’s calls', () => {
  it('gives the first call of each current-turn model content the placeholder, never replacing a real signature', () => {
    const { body, losses } = encode([
      question,
      { role: 'assistant', parts: [call('old', 'Oslo')] },
      result('old'),
      { role: 'assistant', parts: [{ type: 'text', text: 'Oslo is 18C.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'And Paris, Rome, Berlin?' }] },
      { role: 'assistant', parts: [call('a', 'Paris'), call('b', 'Rome')] },
      { role: 'tool', parts: [...result('a').parts, ...result('b').parts] },
      { role: 'assistant', parts: [call('c', 'Berlin', { issuer: 'gemini', value: 'cmVhbA==' })] },
      result('c'),
    ]);
    expect(body.contents).toMatchInlineSnapshot(`
      [
        {
          "parts": [
            {
              "text": "Weather in Paris and Rome?",
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "functionCall": {
                "args": {
                  "city": "Oslo",
                },
                "name": "get_weather",
              },
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "text": "Oslo is 18C.",
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "text": "And Paris, Rome, Berlin?",
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "functionCall": {
                "args": {
                  "city": "Paris",
                },
                "name": "get_weather",
              },
              "thoughtSignature": "skip_thought_signature_validator",
            },
            {
              "functionCall": {
                "args": {
                  "city": "Rome",
                },
                "name": "get_weather",
              },
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "functionCall": {
                "args": {
                  "city": "Berlin",
                },
                "name": "get_weather",
              },
              "thoughtSignature": "cmVhbA==",
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "coerced contents[5].parts[0].thoughtSignature: no Gemini signature for this call of the current turn; sent with skip_thought_signature_validator",
      ]
    `);
  });

  it('produces a conversation from another vendor that the Gemini 3 fake accepts', () => {
    const { body } = encode([
      question,
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Two lookups.', signature: { issuer: 'anthropic', value: 'EqQBCkYI' } },
          { type: 'text', text: '' },
          call('a', 'Paris'),
          call('b', 'Rome'),
        ],
      },
      { role: 'tool', parts: [...result('a').parts, ...result('b').parts] },
    ]);
    expect(validateGeminiRequest(body, { model: 'gemini-3-pro-preview' })).toBeUndefined();
  });

  it('sends the fake’s own signatures back, which it accepts', () => {
    const signature = issueThoughtSignature('resp-1:call');
    const { body } = encode([
      question,
      { role: 'assistant', parts: [call('a', 'Paris', { issuer: 'gemini', value: signature })] },
      result('a'),
    ]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: signature },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', response: { output: '18C' } } }],
      },
    ]);
    expect(validateGeminiRequest(body, { model: 'gemini-3-pro-preview' })).toBeUndefined();
  });
});

// "Unable to submit request because it has an empty text parameter"; "contents.parts must not be empty."
describe('gemini encodeRequest: empty turns', () => {
  it('drops empty and whitespace-only text and the contents it leaves empty, keeping roles valid', () => {
    const { body, losses } = encode([
      question,
      { role: 'assistant', parts: [{ type: 'text', text: '' }] },
      { role: 'assistant', parts: [{ type: 'text', text: '' }, call('a', 'Paris')] },
      result('a'),
      { role: 'assistant', parts: [{ type: 'reasoning', text: 'Unsigned.' }] },
      { role: 'user', parts: [{ type: 'text', text: '' }] },
      { role: 'assistant', parts: [{ type: 'text', text: '  \n' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Well?' }] },
    ]);
    expect(body.contents).toMatchInlineSnapshot(`
      [
        {
          "parts": [
            {
              "text": "Weather in Paris and Rome?",
            },
          ],
          "role": "user",
        },
        {
          "parts": [
            {
              "functionCall": {
                "args": {
                  "city": "Paris",
                },
                "name": "get_weather",
              },
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "get_weather",
                "response": {
                  "output": "18C",
                },
              },
            },
            {
              "text": "Well?",
            },
          ],
          "role": "user",
        },
      ]
    `);
    expect(losses).toMatchInlineSnapshot(`
      [
        "dropped messages[1].parts[0]: Gemini refuses empty text parts",
        "dropped messages[1]: nothing Gemini takes is left in this message",
        "dropped messages[2].parts[0]: Gemini refuses empty text parts",
        "dropped messages[4].parts[0]: reasoning without a signature cannot go back to Gemini",
        "dropped messages[4]: nothing Gemini takes is left in this message",
        "dropped messages[5].parts[0]: Gemini refuses empty text parts",
        "dropped messages[5]: nothing Gemini takes is left in this message",
        "dropped messages[6].parts[0]: whitespace-only text",
        "dropped messages[6]: nothing Gemini takes is left in this message",
      ]
    `);
    expect(validateGeminiRequest(body, { model: 'gemini-3-pro-preview' })).toBeUndefined();
  });
});
