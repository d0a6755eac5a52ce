import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { fixtureJson, serve, type LocalServer } from './helpers.js';

/** A reply as a Claude upstream decodes: signed thinking, text, two tool calls, cache reads. */
const claudeReply: CanonicalReply = {
  id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
  model: 'claude-sonnet-4-5',
  created: 1735787045,
  parts: [
    {
      type: 'reasoning',
      text: 'Two lookups are needed.',
      signature: { issuer: 'anthropic', value: 'EqQBCkYIBhgCIkB' },
    },
    { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'EmwKAhgBEgy3va3pzix' } },
    { type: 'text', text: 'Let me check both.' },
    { type: 'tool-call', id: 'toolu_01A', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'tool-call', id: 'toolu_01B', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: {
    inputTokens: 2100,
    cacheReadTokens: 2000,
    cacheWriteTokens: 50,
    outputTokens: 120,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
    raw: {
      input_tokens: 50,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 50,
      output_tokens: 120,
    },
  },
  extensions: {},
};

describe('gemini encodeReply', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('writes another vendor’s reply as a GenerateContentResponse', () => {
    const losses = new LossLog();
    expect(geminiCodec.encodeReply(claudeReply, losses)).toMatchInlineSnapshot(`
      {
        "candidates": [
          {
            "content": {
              "parts": [
                {
                  "text": "Two lookups are needed.",
                  "thought": true,
                  "thoughtSignature": "anthropic:EqQBCkYIBhgCIkB",
                },
                {
                  "text": "",
                  "thought": true,
                  "thoughtSignature": "anthropic-redacted:EmwKAhgBEgy3va3pzix",
                },
                {
                  "text": "Let me check both.",
                },
                {
                  "functionCall": {
                    "args": {
                      "city": "Paris",
                    },
                    "id": "toolu_01A",
                    "name": "get_weather",
                  },
                },
                {
                  "functionCall": {
                    "args": {
                      "city": "Tokyo",
                    },
                    "id": "toolu_01B",
                    "name": "get_weather",
                  },
                },
              ],
              "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
          },
        ],
        "modelVersion": "claude-sonnet-4-5",
        "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "usageMetadata": {
          "cachedContentTokenCount": 2000,
          "candidatesTokenCount": 120,
          "promptTokenCount": 2100,
          "totalTokenCount": 2220,
        },
      }
    `);
    // Redacted reasoning reaches the Gemini client as a marked thought signature: nothing is lost.
    expect(losses.losses).toEqual([]);
  });

  it('gives a Gemini reply back as Gemini wrote it, extra candidate and response fields included', () => {
    const body = fixtureJson('reply-thoughts-text.json');
    const encoded = geminiCodec.encodeReply(geminiCodec.decodeReply(body, new LossLog()), new LossLog());
    expect(encoded).toEqual(body);
    const blocked = fixtureJson('reply-blocked-prompt.json');
    const reencoded = geminiCodec.encodeReply(geminiCodec.decodeReply(blocked, new LossLog()), new LossLog());
    expect(reencoded).toMatchObject({
      promptFeedback: blocked.promptFeedback,
      usageMetadata: blocked.usageMetadata,
    });
  });

  it('is parsed by @google/genai models.generateContent()', async () => {
    const body = geminiCodec.encodeReply(claudeReply, new LossLog());
    server = await serve({ contentType: 'application/json', body: JSON.stringify(body) });
    const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.origin } });
    const response = await client.models.generateContent({
      model: 'claude-sonnet-4-5',
      contents: 'Weather?',
    });
    expect(response.text).toBe('Let me check both.');
    expect(response.functionCalls).toEqual([
      { id: 'toolu_01A', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'toolu_01B', name: 'get_weather', args: { city: 'Tokyo' } },
    ]);
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.candidates?.[0]?.content?.parts?.[0]).toEqual({
      text: 'Two lookups are needed.',
      thought: true,
      thoughtSignature: 'anthropic:EqQBCkYIBhgCIkB',
    });
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 2100,
      candidatesTokenCount: 120,
      cachedContentTokenCount: 2000,
      totalTokenCount: 2220,
    });
    expect(response.responseId).toBe('msg_01XFDUDYJgAACzvnptvVoYEL');
    expect(response.modelVersion).toBe('claude-sonnet-4-5');
    expect(server.requests[0]?.url).toBe('/v1beta/models/claude-sonnet-4-5:generateContent');
  });
});
