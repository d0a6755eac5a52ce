import { describe, expect, it } from 'vitest';
import type { Part } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';

/** What a reply from another vendor may hold: tokens of every issuer. */
const parts: Part[] = [
  { type: 'reasoning', text: 'Claude thinking.', signature: { issuer: 'anthropic', value: 'EqQBCkYI' } },
  { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' } },
  { type: 'reasoning', text: 'A summary.', redactedData: { issuer: 'openai', value: 'gAAAAAB' } },
  { type: 'text', text: 'Checking.' },
  {
    type: 'tool-call',
    id: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
    signature: { issuer: 'gemini', value: 'R2VtaW5p' },
  },
];

const reply: CanonicalReply = {
  id: 'msg_1',
  model: 'm',
  created: 0,
  parts,
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: {
    inputTokens: 10,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 5,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
  },
  extensions: {},
};

/** The request a Gemini client sends next: its question, the model content as received, the answer. */
function echo(modelParts: unknown[]) {
  const losses = new LossLog();
  const request = geminiCodec.decodeRequest(
    {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: modelParts },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'get_weather', response: { output: '18C' } } }],
        },
      ],
    },
    { losses, model: 'gemini-2.5-pro', stream: false },
  );
  return { assistant: request.messages[1]?.parts, losses: losses.losses };
}

// Gemini clients echo `thoughtSignature` back untouched
// (https://ai.google.dev/gemini-api/docs/thought-signatures): every vendor's token rides there,
// another vendor's behind its marker, so that it returns to its issuer.
describe('gemini client: tokens of every issuer', () => {
  it('a reply writes them as thought signatures, and the echo reads each back with its issuer', () => {
    const losses = new LossLog();
    const body = geminiCodec.encodeReply(reply, losses) as {
      candidates: { content: { parts: unknown[] }; finishReason: string }[];
    };
    const candidate = body.candidates[0]!;
    expect(candidate.content.parts).toMatchInlineSnapshot(`
      [
        {
          "text": "Claude thinking.",
          "thought": true,
          "thoughtSignature": "anthropic:EqQBCkYI",
        },
        {
          "text": "",
          "thought": true,
          "thoughtSignature": "anthropic-redacted:EmwKAhgB",
        },
        {
          "text": "A summary.",
          "thought": true,
          "thoughtSignature": "openai-redacted:gAAAAAB",
        },
        {
          "text": "Checking.",
        },
        {
          "functionCall": {
            "args": {
              "city": "Paris",
            },
            "id": "call_1",
            "name": "get_weather",
          },
          "thoughtSignature": "R2VtaW5p",
        },
      ]
    `);
    expect(candidate.finishReason).toBe('STOP');
    expect(losses.losses).toEqual([]);

    const echoed = echo(candidate.content.parts);
    expect(echoed.assistant).toEqual([
      {
        type: 'reasoning',
        text: 'Claude thinking.',
        signature: { issuer: 'anthropic', value: 'EqQBCkYI' },
        extensions: { gemini: { thought: true } },
      },
      {
        type: 'reasoning',
        text: '',
        redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' },
        extensions: { gemini: { thought: true } },
      },
      {
        type: 'reasoning',
        text: 'A summary.',
        redactedData: { issuer: 'openai', value: 'gAAAAAB' },
        extensions: { gemini: { thought: true } },
      },
      { type: 'text', text: 'Checking.' },
      parts[4],
    ]);
  });

  it('a stream writes them the same way', () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'msg_1', model: 'm', created: 0 },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Claude thinking.' },
      { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQBCkYI' } },
      { type: 'reasoning-start', index: 1, redactedData: { issuer: 'anthropic', value: 'EmwKAhgB' } },
      { type: 'reasoning-end', index: 1 },
      { type: 'reasoning-start', index: 2 },
      { type: 'reasoning-end', index: 2, signature: { issuer: 'anthropic', value: 'RW1wdHk=' } },
      { type: 'tool-call-start', index: 3, id: 'call_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":"Paris"}' },
      { type: 'tool-call-end', index: 3, signature: { issuer: 'gemini', value: 'R2VtaW5p' } },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
    ];
    const losses = new LossLog();
    const encoder = geminiCodec.createStreamEncoder({ losses, estimatedInputTokens: 1, model: 'm' });
    const streamed = events
      .map((event) => encoder.push(event))
      .filter((text) => text !== '')
      .flatMap((text) => {
        const chunk = JSON.parse(text.slice('data: '.length)) as {
          candidates: { content: { parts: Record<string, unknown>[] } }[];
        };
        return chunk.candidates[0]!.content.parts;
      });
    expect(streamed).toMatchInlineSnapshot(`
      [
        {
          "text": "Claude thinking.",
          "thought": true,
        },
        {
          "text": "",
          "thought": true,
          "thoughtSignature": "anthropic:EqQBCkYI",
        },
        {
          "text": "",
          "thought": true,
          "thoughtSignature": "anthropic-redacted:EmwKAhgB",
        },
        {
          "text": "",
          "thought": true,
          "thoughtSignature": "anthropic:RW1wdHk=",
        },
        {
          "functionCall": {
            "args": {
              "city": "Paris",
            },
            "id": "call_1",
            "name": "get_weather",
          },
          "thoughtSignature": "R2VtaW5p",
        },
        {
          "text": "",
        },
      ]
    `);
    expect(losses.losses).toEqual([]);
    // The SDK's client keeps the chunks' parts as one model content.
    const echoed = echo(streamed.filter((part) => part.text !== '' || part.thoughtSignature !== undefined));
    expect(echoed.assistant?.map((part) => ('signature' in part ? part.signature : undefined))).toEqual([
      { issuer: 'anthropic', value: 'EqQBCkYI' },
      undefined,
      { issuer: 'anthropic', value: 'RW1wdHk=' },
      { issuer: 'gemini', value: 'R2VtaW5p' },
    ]);
  });
});
