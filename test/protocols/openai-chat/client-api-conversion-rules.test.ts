import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';

/** client-api 4.7, "Calling a family B model through chat completions", as far as this codec's part goes. */
describe('client-api 4.7 conversion rules', () => {
  test('rule 2: developer messages become system instructions; web_search_options becomes a web search tool', () => {
    const request = openAIChatCodec.decodeRequest(
      {
        model: 'claude-sonnet-4',
        messages: [
          { role: 'developer', content: 'Cite sources.' },
          { role: 'user', content: 'News today?' },
        ],
        web_search_options: { search_context_size: 'medium' },
        stop: 'END',
      },
      { losses: new LossLog() },
    );
    expect(request.system).toEqual([{ type: 'text', text: 'Cite sources.' }]);
    expect(request.messages.map((message) => message.role)).toEqual(['user']);
    expect(request.tools).toEqual([
      {
        type: 'provider',
        kind: 'web-search',
        protocol: 'openai-chat',
        value: { search_context_size: 'medium' },
      },
    ]);
    expect(request.stop).toEqual(['END']);
  });

  const thinkingReply: CanonicalReply = {
    id: 'msg_01',
    model: 'claude-sonnet-4',
    created: 1,
    parts: [
      { type: 'reasoning', text: 'Hmm.', signature: { issuer: 'anthropic', value: 'sig-1' } },
      { type: 'text', text: 'Yes.' },
    ],
    finishReason: { unified: 'stop', raw: 'end_turn' },
    usage: emptyUsage(),
    extensions: {},
  };

  test('rule 3: thinking comes back in reasoning_content, and signed in reasoning_details (JSON)', () => {
    const losses = new LossLog();
    const body = openAIChatCodec.encodeReply(thinkingReply, losses) as {
      choices: { message: Record<string, unknown> }[];
    };
    expect(body.choices[0]?.message).toMatchObject({
      content: 'Yes.',
      reasoning_content: 'Hmm.',
      reasoning_details: [
        { type: 'reasoning.text', text: 'Hmm.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 },
      ],
    });
    expect(losses.losses).toEqual([]);
  });

  test('rule 3: the same when streaming', () => {
    const losses = new LossLog();
    const encoder = openAIChatCodec.createStreamEncoder({
      losses,
      estimatedInputTokens: 1,
      model: 'claude-sonnet-4',
    });
    const text = [
      encoder.push({ type: 'response-start', id: 'msg_01', model: 'claude-sonnet-4', created: 1 }),
      encoder.push({ type: 'reasoning-start', index: 0 }),
      encoder.push({ type: 'reasoning-delta', index: 0, text: 'Hmm.' }),
      encoder.push({ type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'sig-1' } }),
      encoder.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' } }),
      encoder.end(),
    ].join('');
    expect(text).toContain('"delta":{"reasoning_content":"Hmm."}');
    expect(text).toContain(
      '"delta":{"reasoning_details":[{"type":"reasoning.text","text":"Hmm.","signature":"sig-1","format":"anthropic-claude-v1","index":0}]}',
    );
    expect(losses.losses).toEqual([]);
  });
});
