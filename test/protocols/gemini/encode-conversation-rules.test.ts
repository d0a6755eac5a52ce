import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';

function encode(fields: Partial<CanonicalRequest>) {
  const losses = new LossLog();
  const body = geminiCodec.encodeRequest(
    {
      model: 'gemini-2.5-pro',
      system: [],
      messages: [],
      tools: [],
      stream: false,
      extensions: {},
      ...fields,
    },
    { losses, defaultMaxTokens: 8192 },
  );
  return { body, losses: losses.losses.map((loss) => `${loss.kind} ${loss.path}: ${loss.reason}`) };
}

// Conversations other protocols allow that generateContent refuses as they stand
// (https://ai.google.dev/api/generate-content). Gemini refuses a text part with empty text ("Unable to submit request because it has an empty
// text parameter"), in contents and in the system instruction alike.
describe('gemini encodeRequest: empty text', () => {
  it('leaves out the empty text a chat client sends beside its tool calls', () => {
    const { body, losses } = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'text', text: '' },
            { type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          ],
        },
        { role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'call_a', content: [] }] },
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: 'skip_thought_signature_validator',
          },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '' } } }] },
    ]);
    expect(losses).toContain('dropped messages[1].parts[0]: Gemini refuses empty text parts');
  });

  it('leaves out an assistant turn that was only empty text, and empty system text', () => {
    const { body, losses } = encode({
      system: [
        { type: 'text', text: '' },
        { type: 'text', text: 'Be terse.' },
      ],
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', parts: [{ type: 'text', text: '' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Well?' }] },
      ],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be terse.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'user', parts: [{ text: 'Well?' }] },
    ]);
    expect(losses).toEqual([
      'dropped system[0]: Gemini refuses empty text parts',
      'dropped messages[1].parts[0]: Gemini refuses empty text parts',
      'dropped messages[1]: nothing Gemini takes is left in this message',
    ]);
  });

  it('keeps an empty text part that carries a thought signature, as Gemini sends it', () => {
    const { body } = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'text', text: 'Hello.' },
            {
              type: 'reasoning',
              text: '',
              signature: { issuer: 'gemini', value: 'c2ln' },
              extensions: { gemini: { thought: false } },
            },
            { type: 'text', text: '' },
          ],
        },
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'Hello.' }, { text: '', thoughtSignature: 'c2ln' }] },
    ]);
  });
});

describe('gemini encodeRequest: function call turns', () => {
  it('joins an assistant message that calls a function to the model turn before it', () => {
    const { body } = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Let me check.' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', toolCallId: 'call_a', content: [{ type: 'text', text: '18C' }] }],
        },
        { role: 'assistant', parts: [{ type: 'text', text: '18C.' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Anything else?' }] },
      ],
    });
    // Otherwise: "Please ensure that function call turn comes immediately after a user turn or
    // after a function response turn."
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Let me check.' },
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: 'skip_thought_signature_validator',
          },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '18C' } } }] },
      { role: 'model', parts: [{ text: '18C.' }] },
      { role: 'model', parts: [{ text: 'Anything else?' }] },
    ]);
  });
});
