import {
  ConverseCommand,
  ConverseStreamCommand,
  ThrottlingException,
  type ConverseRequest,
  type ConverseStreamOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage } from '../../../src/ir/usage.js';
import { codec, encodeEvents, fixtureJson } from './helpers.js';
import { base64Blobs, recordingServer, toEventStream, uint8Blobs } from './sdk-wire.js';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('@aws-sdk/client-bedrock-runtime writes what the encoder writes', () => {
  it.each([
    ['request-claude-tools.json', MODEL],
    ['request-nova.json', 'us.amazon.nova-2-lite-v1:0'],
  ])(
    'ConverseCommand with the content of %s sends our encoded body, and it decodes back',
    async (name, model) => {
      const fixture = fixtureJson(name);
      const losses = new LossLog();
      const ours = codec.encodeRequest(codec.decodeRequest(fixture, { losses, model }), {
        losses,
        defaultMaxTokens: 8192,
      });
      const server = await recordingServer({
        contentType: 'application/json',
        body: JSON.stringify(okReply),
      });
      try {
        await server.client.send(
          new ConverseCommand({ modelId: model, ...(uint8Blobs(ours) as Omit<ConverseRequest, 'modelId'>) }),
        );
        const [sent] = server.requests;
        expect(sent?.path).toBe(`/model/${encodeURIComponent(model)}/converse`);
        const body = JSON.parse(sent?.body ?? '') as Record<string, unknown>;
        expect(body).toEqual(ours);
        expect(codec.decodeRequest(body, { losses: new LossLog(), model })).toEqual(
          codec.decodeRequest(fixture, { losses: new LossLog(), model }),
        );
      } finally {
        await server.close();
      }
    },
  );
});

const okReply = {
  output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  metrics: { latencyMs: 1 },
};

describe('@aws-sdk/client-bedrock-runtime reads what the encoder writes', () => {
  const reply: CanonicalReply = {
    id: 'msg_1',
    model: MODEL,
    created: 1,
    parts: [
      { type: 'reasoning', text: 'weigh it', signature: { issuer: 'anthropic', value: 'EqQBCkgIBhAB' } },
      { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'RVVjQkNr' } },
      { type: 'text', text: 'Checking 紅葉 season.' },
      { type: 'tool-call', id: 'tooluse_1', name: 'get_weather', arguments: '{"city":"Kyoto"}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: {
      ...emptyUsage(),
      inputTokens: 300,
      cacheReadTokens: 200,
      cacheWriteTokens: 50,
      cacheWrite1hTokens: 50,
      outputTokens: 40,
    },
    extensions: {},
  };

  it('ConverseCommand parses encodeReply output to the same content, usage and stop reason', async () => {
    const body = codec.encodeReply(reply, new LossLog());
    const server = await recordingServer({ contentType: 'application/json', body: JSON.stringify(body) });
    try {
      const output = await server.client.send(
        new ConverseCommand({ modelId: MODEL, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }),
      );
      const { $metadata: _metadata, ...parsed } = output;
      expect(base64Blobs(parsed)).toEqual(body);
      expect(output.output?.message?.content?.[1]?.reasoningContent?.redactedContent).toEqual(
        new Uint8Array(Buffer.from('RVVjQkNr', 'base64')),
      );
      expect(output.usage).toEqual({
        inputTokens: 50,
        outputTokens: 40,
        totalTokens: 340,
        cacheReadInputTokens: 200,
        cacheWriteInputTokens: 50,
        cacheDetails: [{ ttl: '1h', inputTokens: 50 }],
      });
      expect(codec.decodeReply(base64Blobs(parsed), new LossLog()).parts).toEqual(reply.parts);
    } finally {
      await server.close();
    }
  });

  const events: StreamEvent[] = [
    { type: 'response-start', id: 'msg_1', model: MODEL, created: 1 },
    { type: 'reasoning-start', index: 0 },
    { type: 'reasoning-delta', index: 0, text: 'weigh it' },
    { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQBCkgIBhAB' } },
    { type: 'reasoning-start', index: 1, redactedData: { issuer: 'anthropic', value: 'RVVjQkNr' } },
    { type: 'reasoning-end', index: 1 },
    { type: 'text-start', index: 2 },
    { type: 'text-delta', index: 2, text: 'Checking 紅葉' },
    { type: 'text-delta', index: 2, text: ' season.' },
    { type: 'text-end', index: 2 },
    { type: 'tool-call-start', index: 3, id: 'tooluse_1', name: 'get_weather' },
    { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', index: 3, argumentsDelta: '"Kyoto"}' },
    { type: 'tool-call-end', index: 3 },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: reply.usage },
  ];

  it('ConverseStreamCommand reads the encoded stream, framed as event-stream, event for event', async () => {
    const text = encodeEvents(events);
    const server = await recordingServer({
      contentType: 'application/vnd.amazon.eventstream',
      body: toEventStream(text),
    });
    try {
      const output = await server.client.send(
        new ConverseStreamCommand({
          modelId: MODEL,
          messages: [{ role: 'user', content: [{ text: 'hi' }] }],
        }),
      );
      expect(server.requests[0]?.path).toBe(`/model/${encodeURIComponent(MODEL)}/converse-stream`);
      const received: ConverseStreamOutput[] = [];
      for await (const event of output.stream ?? []) received.push(event);
      expect(base64Blobs(received)).toMatchInlineSnapshot(`
        [
          {
            "messageStart": {
              "role": "assistant",
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 0,
              "delta": {
                "reasoningContent": {
                  "text": "weigh it",
                },
              },
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 0,
              "delta": {
                "reasoningContent": {
                  "signature": "EqQBCkgIBhAB",
                },
              },
            },
          },
          {
            "contentBlockStop": {
              "contentBlockIndex": 0,
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 1,
              "delta": {
                "reasoningContent": {
                  "redactedContent": "RVVjQkNr",
                },
              },
            },
          },
          {
            "contentBlockStop": {
              "contentBlockIndex": 1,
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 2,
              "delta": {
                "text": "Checking 紅葉",
              },
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 2,
              "delta": {
                "text": " season.",
              },
            },
          },
          {
            "contentBlockStop": {
              "contentBlockIndex": 2,
            },
          },
          {
            "contentBlockStart": {
              "contentBlockIndex": 3,
              "start": {
                "toolUse": {
                  "name": "get_weather",
                  "toolUseId": "tooluse_1",
                },
              },
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 3,
              "delta": {
                "toolUse": {
                  "input": "{"city":",
                },
              },
            },
          },
          {
            "contentBlockDelta": {
              "contentBlockIndex": 3,
              "delta": {
                "toolUse": {
                  "input": ""Kyoto"}",
                },
              },
            },
          },
          {
            "contentBlockStop": {
              "contentBlockIndex": 3,
            },
          },
          {
            "messageStop": {
              "stopReason": "tool_use",
            },
          },
          {
            "metadata": {
              "metrics": {
                "latencyMs": 0,
              },
              "usage": {
                "cacheDetails": [
                  {
                    "inputTokens": 50,
                    "ttl": "1h",
                  },
                ],
                "cacheReadInputTokens": 200,
                "cacheWriteInputTokens": 50,
                "inputTokens": 50,
                "outputTokens": 40,
                "totalTokens": 340,
              },
            },
          },
        ]
      `);
    } finally {
      await server.close();
    }
  });

  it('ConverseStreamCommand raises the exception an error event becomes', async () => {
    const text = encodeEvents([
      events[0]!,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Partial' },
      { type: 'error', message: 'Too many requests', status: 429 },
    ]);
    const server = await recordingServer({
      contentType: 'application/vnd.amazon.eventstream',
      body: toEventStream(text),
    });
    try {
      const output = await server.client.send(
        new ConverseStreamCommand({
          modelId: MODEL,
          messages: [{ role: 'user', content: [{ text: 'hi' }] }],
        }),
      );
      const received: ConverseStreamOutput[] = [];
      let failure: unknown;
      try {
        for await (const event of output.stream ?? []) received.push(event);
      } catch (error) {
        failure = error;
      }
      expect(received.map((event) => Object.keys(event).filter((key) => key !== '$unknown'))).toEqual([
        ['messageStart'],
        ['contentBlockDelta'],
      ]);
      expect(failure).toBeInstanceOf(ThrottlingException);
      expect((failure as ThrottlingException).message).toBe('Too many requests');
    } finally {
      await server.close();
    }
  });
});
