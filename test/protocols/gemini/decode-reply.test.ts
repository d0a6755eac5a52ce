import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { fixtureJson } from './helpers.js';

describe('gemini decodeReply', () => {
  it('reply-thoughts-text.json: thoughts, a signed answer, usage with cache and thoughts', () => {
    const body = fixtureJson('reply-thoughts-text.json');
    const reply = geminiCodec.decodeReply(body, new LossLog());
    expect(reply.id).toBe('mPQcaZ2gB9qxqtsP7K_h8Qs');
    expect(reply.model).toBe('gemini-2.5-flash');
    expect(reply.parts).toEqual([
      {
        type: 'reasoning',
        text: '**Weighing the options**\n\nThe user wants a short answer.',
        extensions: { gemini: { thought: true } },
      },
      {
        type: 'reasoning',
        text: '',
        signature: { issuer: 'gemini', value: 'CqUBAVKhc7k0dGhvdWdodC1zaWduYXR1cmU=' },
        extensions: { gemini: { thought: false } },
      },
      { type: 'text', text: 'Kyoto in autumn is best for maple leaves — 紅葉.' },
    ]);
    expect(reply.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    expect(reply.usage).toEqual({
      inputTokens: 1200,
      cacheReadTokens: 1024,
      cacheWriteTokens: 0,
      outputTokens: 91,
      reasoningTokens: 77,
      webSearchCalls: 0,
      estimated: false,
      raw: body.usageMetadata,
    });
    expect(reply.extensions).toEqual({
      gemini: {
        candidate: { safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }] },
      },
    });
  });

  it('reply-parallel-calls.json: parallel calls with made-up ids unique to the reply, tool-calls finish', () => {
    const reply = geminiCodec.decodeReply(fixtureJson('reply-parallel-calls.json'), new LossLog());
    expect(reply.parts).toEqual([
      {
        type: 'tool-call',
        id: 'call_Z2VtaW5pLXRvb2xz_0',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        signature: { issuer: 'gemini', value: 'CpwBAVKhc7lMhz4uF0C2bBSaJ3qGh8sK1bWnqg==' },
      },
      {
        type: 'tool-call',
        id: 'call_Z2VtaW5pLXRvb2xz_1',
        name: 'get_weather',
        arguments: '{"city":"Tokyo","units":["c"]}',
      },
    ]);
    expect(reply.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    // Tool-use prompt tokens are input; candidates exclude thoughts.
    expect(reply.usage).toMatchObject({ inputTokens: 90, outputTokens: 60, reasoningTokens: 30 });
  });

  it('reply-blocked-prompt.json: a blocked prompt is a content filter with its block reason', () => {
    const reply = geminiCodec.decodeReply(fixtureJson('reply-blocked-prompt.json'), new LossLog());
    expect(reply.parts).toEqual([]);
    expect(reply.finishReason).toEqual({ unified: 'content-filter', raw: 'PROHIBITED_CONTENT' });
    expect(reply.usage).toMatchObject({ inputTokens: 9, outputTokens: undefined });
    expect(reply.extensions.gemini?.response).toEqual({
      promptFeedback: {
        blockReason: 'PROHIBITED_CONTENT',
        safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH' }],
      },
    });
  });

  it('reply-max-tokens-thinking.json: output spent on thoughts alone is still output', () => {
    const reply = geminiCodec.decodeReply(fixtureJson('reply-max-tokens-thinking.json'), new LossLog());
    expect(reply.parts).toEqual([]);
    expect(reply.finishReason).toEqual({ unified: 'length', raw: 'MAX_TOKENS' });
    expect(reply.usage).toMatchObject({ inputTokens: 12, outputTokens: 100, reasoningTokens: 100 });
  });

  it('reply-grounded.json: counts the web searches of search grounding', () => {
    const reply = geminiCodec.decodeReply(fixtureJson('reply-grounded.json'), new LossLog());
    expect(reply.usage.webSearchCalls).toBe(2);
    expect(reply.extensions.gemini?.candidate).toHaveProperty('groundingMetadata');
  });

  it('is lenient: a body without candidates, ids or usage still decodes, with a derived id', () => {
    const first = geminiCodec.decodeReply({}, new LossLog());
    const second = geminiCodec.decodeReply({}, new LossLog());
    expect(first.id).toMatch(/^gen-[0-9a-f]{24}$/);
    expect(second.id).toBe(first.id);
    expect(first.finishReason).toEqual({ unified: 'other', raw: undefined });
    expect(first.usage).toMatchObject({ inputTokens: undefined, outputTokens: undefined });
    expect(geminiCodec.decodeReply('not json', new LossLog()).parts).toEqual([]);
  });

  it('keeps the first candidate, records the others, and keeps odd parts raw', () => {
    const losses = new LossLog();
    const reply = geminiCodec.decodeReply(
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'a' }, { functionCall: { args: {} } }] },
            finishReason: 'SPII',
          },
          { content: { role: 'model', parts: [{ text: 'b' }] } },
        ],
        createTime: '2025-01-02T03:04:05Z',
      },
      losses,
    );
    expect(reply.parts).toEqual([
      { type: 'text', text: 'a' },
      { type: 'raw', protocol: 'gemini', value: { functionCall: { args: {} } } },
    ]);
    expect(reply.finishReason).toEqual({ unified: 'content-filter', raw: 'SPII' });
    expect(reply.created).toBe(1735787045);
    expect(losses.losses).toEqual([
      { path: 'candidates[1]', kind: 'dropped', reason: 'only the first candidate is kept' },
      {
        path: 'candidates[0].content.parts[1]',
        kind: 'coerced',
        reason: 'not a part a model writes; kept as a raw part',
      },
    ]);
  });
});
