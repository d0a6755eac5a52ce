import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/ir/content.js';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { anthropicMessagesPassthrough as passthrough } from '../../../src/protocols/anthropic-messages/passthrough.js';
import { startFakeAnthropic } from '../../fakes/fake-anthropic.js';
import type { FakeUpstream } from '../../fakes/fake-upstream.js';
import { canonicalRequest, decodeChunks, expectStreamGrammar, parseSse } from './helpers.js';

// The encoded request goes to the fake Anthropic upstream; its replies (real shapes) come back decoded.
const apiKey = 'sk-fake-anthropic';
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    apiKey,
    usage: { inputTokens: 300, cachedTokens: 100, cacheWriteTokens: 50, outputTokens: 40 },
  });
});
afterAll(() => fake.close());

const request = canonicalRequest({
  model: 'claude-fake',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'Weather?' }] }],
  tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }],
  reasoning: { effort: 'low' },
});

async function send(stream: boolean, sent: CanonicalRequest = request): Promise<Response> {
  const body = codec.encodeRequest({ ...sent, stream }, { losses: new LossLog(), defaultMaxTokens: 8192 });
  return fetch(`${fake.origin}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('against the fake Anthropic upstream', () => {
  it('decodes its reply: signed thinking, text, a tool call, usage with cache', async () => {
    const response = await send(false);
    expect(response.status).toBe(200);
    const reply = codec.decodeReply(await response.json(), new LossLog());
    expect(reply.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(reply.parts[0]).toMatchObject({ signature: { issuer: 'anthropic', value: expect.any(String) } });
    expect(reply.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    expect(reply.usage).toMatchObject({
      inputTokens: 300,
      cacheReadTokens: 100,
      cacheWriteTokens: 50,
      outputTokens: 40,
    });
    expect(fake.requests.at(-1)?.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 8192,
    });
  });

  it('decodes its stream into grammatical events with the same usage the passthrough tap reads', async () => {
    const text = await (await send(true)).text();
    const events = decodeChunks(
      codec.createStreamDecoder(new LossLog()),
      new TextEncoder().encode(text),
      [17, 400],
    );
    expectStreamGrammar(events);
    expect(events.map((event) => event.type).filter((type) => type.endsWith('-start'))).toEqual([
      'response-start',
      'reasoning-start',
      'text-start',
      'tool-call-start',
    ]);
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', usage: { inputTokens: 300, outputTokens: 40 } });
    const tap = passthrough.createStreamTap({ hideUsageEvents: false });
    for (const event of parseSse(text)) tap.onEvent(event);
    expect(tap.usage()).toEqual(finish?.type === 'finish' ? finish.usage : undefined);
  });

  it('takes its own thinking back in the next turn of the tool loop, with thinking still on', async () => {
    const reply = codec.decodeReply(await (await send(false)).json(), new LossLog());
    const call = reply.parts.find((part) => part.type === 'tool-call');
    const messages: Message[] = [
      ...request.messages,
      { role: 'assistant', parts: reply.parts },
      {
        role: 'tool',
        parts: [
          { type: 'tool-result', toolCallId: call?.id ?? '', content: [{ type: 'text', text: '18C' }] },
        ],
      },
    ];
    const response = await send(false, { ...request, messages });
    expect(response.status).toBe(200);
    expect(fake.requests.at(-1)?.body).toMatchObject({ thinking: { type: 'enabled' } });
  });

  it('is sent another vendor’s tool loop with thinking off instead of being refused', async () => {
    const messages: Message[] = [
      ...request.messages,
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Gemini thinks.', signature: { issuer: 'gemini', value: 'CiQthought' } },
          {
            type: 'tool-call',
            id: 'fc_1',
            name: 'get_weather',
            arguments: '{}',
            signature: { issuer: 'gemini', value: 'CiQcall' },
          },
        ],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', toolCallId: 'fc_1', content: [{ type: 'text', text: '18C' }] }],
      },
    ];
    const response = await send(true, { ...request, messages });
    expect(response.status).toBe(200);
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('thinking');
  });
});
