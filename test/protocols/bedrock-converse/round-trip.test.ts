import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import {
  codec,
  decodeStreamText,
  encodeEvents,
  expectStreamGrammar,
  fixtureJson,
  fixtureText,
  stable,
} from './helpers.js';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA_2 = 'us.amazon.nova-2-lite-v1:0';
const OTHER = 'meta.llama4-maverick-17b-instruct-v1:0';

/** Many shapes in one request: kept blocks, cache points everywhere, JSON results, citations, effort. */
const edgeRequest = {
  system: [
    { text: 'one' },
    { text: 'two' },
    { cachePoint: { type: 'default', ttl: '5m' } },
    { guardContent: { text: { text: 'g' } } },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { image: { format: 'webp', source: { s3Location: { uri: 's3://b/i.webp' } } } },
        { cachePoint: { type: 'default' } },
        { searchResult: { source: 'https://example.com', title: 't', content: [{ text: 'x' }] } },
        { text: 'first' },
      ],
    },
    { role: 'user', content: [{ text: 'second turn, merged' }] },
    {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'unsigned' } } },
        { citationsContent: { content: [{ text: 'cited' }], citations: [{ title: 'doc' }] } },
        { toolUse: { toolUseId: 'a', name: 'f', input: { nested: [1, { b: null }] } } },
        { toolUse: { toolUseId: 'b', name: 'g', input: {} } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'a',
            content: [{ json: [1, 2] }, { image: { format: 'gif', source: { bytes: 'R0lGODlh' } } }],
          },
        },
        { cachePoint: { type: 'default', ttl: '1h' } },
        { toolResult: { toolUseId: 'b', content: [{ text: 'failed' }], status: 'error' } },
        { text: 'go on' },
      ],
    },
  ],
  toolConfig: {
    tools: [
      { toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } }, strict: true } },
      {
        toolSpec: { name: 'g', description: 'G.', inputSchema: { json: { type: 'object', properties: {} } } },
      },
      { cachePoint: { type: 'default' } },
      { systemTool: { name: 'nova_grounding' } },
    ],
    toolChoice: { tool: { name: 'g' } },
  },
  inferenceConfig: { temperature: 0, topP: 1 },
  outputConfig: { effort: 'high' },
  additionalModelRequestFields: { custom_flag: true },
  promptVariables: { city: { text: 'Oslo' } },
  additionalModelResponseFieldPaths: ['/stop_sequence'],
};

/** The edge shapes as Claude takes them while thinking: signed reasoning first, no forced tool, no sampling. */
const claudeEdgeRequest = {
  ...edgeRequest,
  messages: edgeRequest.messages.map((message, index) =>
    index === 2
      ? {
          ...message,
          content: [
            { reasoningContent: { reasoningText: { text: 'signed', signature: 'EqQB' } } },
            ...message.content.slice(1),
          ],
        }
      : message,
  ),
  toolConfig: { ...edgeRequest.toolConfig, toolChoice: { auto: {} } },
  inferenceConfig: { maxTokens: 9000 },
  additionalModelRequestFields: { thinking: { type: 'adaptive' }, custom_flag: true },
};

describe('bedrock converse round trips', () => {
  it.each([
    ['request-claude-tools.json', fixtureJson('request-claude-tools.json'), CLAUDE],
    ['request-nova.json', fixtureJson('request-nova.json'), NOVA_2],
    ['edge shapes', edgeRequest, OTHER],
    ['edge shapes, for Claude', claudeEdgeRequest, CLAUDE],
  ])('request %s: decode(encode(decode(x))) equals decode(x)', (_name, body, model) => {
    const context = { losses: new LossLog(), model };
    const decoded = codec.decodeRequest(body, context);
    const encodeLosses = new LossLog();
    const encoded = codec.encodeRequest(decoded, { losses: encodeLosses, defaultMaxTokens: 8192 });
    expect(codec.decodeRequest(encoded, context)).toEqual(decoded);
    expect(encodeLosses.losses).toEqual([]);
  });

  it('request edge shapes: written back block for block', () => {
    const decoded = codec.decodeRequest(edgeRequest, { losses: new LossLog(), model: OTHER });
    const encoded = codec.encodeRequest(decoded, { losses: new LossLog(), defaultMaxTokens: 8192 });
    const merged = {
      ...edgeRequest,
      messages: [
        {
          role: 'user',
          content: [...(edgeRequest.messages[0]?.content ?? []), ...(edgeRequest.messages[1]?.content ?? [])],
        },
        ...edgeRequest.messages.slice(2),
      ],
    };
    expect(encoded).toEqual(merged);
  });

  it.each(['reply-tool-use.json', 'reply-guardrail.json'])(
    'reply %s: decodeReply(encodeReply(decodeReply(x))) equals decodeReply(x)',
    (name) => {
      const decoded = codec.decodeReply(fixtureJson(name), new LossLog());
      const losses = new LossLog();
      const encoded = codec.encodeReply(decoded, losses);
      expect(encoded).toEqual(fixtureJson(name));
      const again = codec.decodeReply(encoded, new LossLog());
      expect(again).toEqual({ ...decoded, created: again.created });
      expect(losses.losses).toEqual([]);
    },
  );

  it.each(['stream-thinking-tool.txt', 'stream-throttled.txt', 'stream-redacted-cut-off.txt'])(
    'stream %s: decoding the encoded events gives the same events',
    (name) => {
      const events = decodeStreamText(fixtureText(name));
      const again = decodeStreamText(encodeEvents(events));
      expectStreamGrammar(again);
      // A stream that never finished is told to a Converse client as end_turn, with the relay's estimate (0 here).
      const estimate = {
        inputTokens: 0,
        outputTokens: 0,
        totalTokens: 0,
        cacheReadInputTokens: 0,
        cacheWriteInputTokens: 0,
      };
      const expected = events.map((event): StreamEvent =>
        event.type === 'finish' && event.finishReason.raw === undefined
          ? {
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'end_turn' },
              usage: { ...emptyUsage(), inputTokens: 0, outputTokens: 0, raw: estimate },
            }
          : event,
      );
      expect(stable(again)).toEqual(stable(expected));
    },
  );
});
