import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { convertAnthropicUsage } from '../../../src/protocols/anthropic-messages/convert-anthropic-usage.js';
import { anthropicMessagesPassthrough as passthrough } from '../../../src/protocols/anthropic-messages/passthrough.js';
import { parseSse, readFixture, readJsonFixture } from './helpers.js';
import { scannedDocument } from '../../helpers/json-document.js';

describe('anthropicMessagesPassthrough', () => {
  it('reads the stream flag and the output cap, and patches nothing but the model', () => {
    const body = readJsonFixture('request-claude-code.json');
    const copy = structuredClone(body);
    expect(passthrough.upstreamEndpoint).toBe('anthropic-messages');
    expect(passthrough.isStream(body)).toBe(true);
    expect(passthrough.isStream({ stream: 'yes' })).toBe(false);
    expect(passthrough.outputCap(body)).toBe(32000);
    expect(passthrough.outputCap({})).toBeUndefined();
    const prepared = passthrough.prepareRequest(body, { upstreamModel: 'claude-sonnet-4-5-20250929' });
    expect(prepared).toEqual({
      body: { ...copy, model: 'claude-sonnet-4-5-20250929' },
      hideUsageEvents: false,
    });
    expect(body).toEqual(copy);
  });

  it('reads the usage of a complete reply', () => {
    expect(
      passthrough.usageFromReply(scannedDocument(readJsonFixture('reply-web-search.json'))),
    ).toMatchObject({
      inputTokens: 6039,
      outputTokens: 931,
      webSearchCalls: 1,
    });
    expect(passthrough.usageFromReply(scannedDocument('not json'))).toBeUndefined();
  });

  it('taps a stream: input from message_start, cumulative totals from message_delta, produced text', () => {
    const tap = passthrough.createStreamTap({ hideUsageEvents: false });
    const events = parseSse(readFixture('stream-thinking-tool.txt'));
    const deltaAt = events.findIndex((event) => event.event === 'message_delta');
    events.slice(0, deltaAt).forEach((event) => expect(tap.onEvent(event)).toEqual({ kind: 'forward' }));
    // Before message_delta only the input is known; output is left to the gateway's estimate.
    expect(tap.usage()).toMatchObject({
      inputTokens: 4672,
      cacheReadTokens: 3000,
      cacheWriteTokens: 1200,
      outputTokens: undefined,
    });
    events.slice(deltaAt).forEach((event) => expect(tap.onEvent(event)).toEqual({ kind: 'forward' }));
    expect(tap.missingEnd()).toBeUndefined();
    expect(tap.usage()).toEqual({
      inputTokens: 4672,
      cacheReadTokens: 3000,
      cacheWriteTokens: 1200,
      cacheWrite5mTokens: 200,
      cacheWrite1hTokens: 1000,
      outputTokens: 89,
      reasoningTokens: 31,
      webSearchCalls: 0,
      estimated: false,
      raw: expect.objectContaining({ input_tokens: 472, output_tokens: 89 }),
    });
    expect(tap.producedText()).toBe(
      'Let me think about the weather in Zürich — call the tool.Okay — checking 漢字 and 🚀 now.{"city": "Zürich", "unit": "celsius"}',
    );
  });

  it('counts web searches reported in message_delta', () => {
    const tap = passthrough.createStreamTap({ hideUsageEvents: false });
    for (const event of parseSse(readFixture('stream-web-search.txt'))) tap.onEvent(event);
    expect(tap.usage()).toMatchObject({ inputTokens: 10682, outputTokens: 510, webSearchCalls: 1 });
    expect(tap.producedText()).toBe('I\'ll check.{"query": "weather NYC today"}It is sunny, 22°C.');
  });

  it('writes a stream error event the SDK raises as an APIError', async () => {
    const tap = passthrough.createStreamTap({ hideUsageEvents: false });
    const idle = tap.errorEvent({
      message: 'sent nothing (request id: r1)',
      code: 'upstream_timeout',
      status: 504,
    });
    expect(idle).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"timeout_error","message":"sent nothing (request id: r1)"}}\n\n',
    );
    expect(tap.errorEvent({ message: 'broken', code: 'upstream_stream_broken', status: 502 })).toContain(
      '"type":"api_error"',
    );
    expect(tap.errorEvent({ message: 'busy', code: 'upstream_overloaded', status: 503 })).toContain(
      '"type":"overloaded_error"',
    );

    const start = readFixture('stream-error.txt').split('event: error')[0] ?? '';
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(start + idle);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new Anthropic({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
      const stream = client.messages.stream({
        model: 'm',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      });
      await expect(stream.finalMessage()).rejects.toBeInstanceOf(APIError);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('convertAnthropicUsage', () => {
  it('adds cache reads and writes to the input, which Anthropic counts apart', () => {
    expect(
      convertAnthropicUsage({
        input_tokens: 10,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 50,
        output_tokens: 5,
      }),
    ).toMatchObject({ inputTokens: 160, cacheReadTokens: 100, cacheWriteTokens: 50, outputTokens: 5 });
  });

  it('takes cache writes from the TTL split when the total is missing', () => {
    expect(
      convertAnthropicUsage({
        input_tokens: 1,
        output_tokens: 1,
        cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 4 },
      }),
    ).toMatchObject({ inputTokens: 8, cacheWriteTokens: 7, cacheWrite5mTokens: 3, cacheWrite1hTokens: 4 });
  });

  it('reports nothing for a usage block without counts, and never a negative count', () => {
    expect(convertAnthropicUsage(null)).toBeUndefined();
    expect(convertAnthropicUsage({ service_tier: 'standard' })).toBeUndefined();
    expect(convertAnthropicUsage({ input_tokens: -5, output_tokens: 3 })).toMatchObject({
      inputTokens: undefined,
      outputTokens: 3,
    });
  });
});
