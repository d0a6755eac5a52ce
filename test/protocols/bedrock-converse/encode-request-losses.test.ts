import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { encodeRequest } from '../../../src/protocols/bedrock-converse/encode-request.js';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

function encode(request: Partial<CanonicalRequest>, losses = new LossLog()) {
  return encodeRequest(
    { model: CLAUDE, system: [], messages: [], tools: [], stream: false, extensions: {}, ...request },
    { losses, defaultMaxTokens: 8192 },
  );
}

const ask = (text: string) => ({ role: 'user' as const, parts: [{ type: 'text' as const, text }] });

describe('bedrock converse request encoder, on a conversation from another protocol', () => {
  it('a conversation from another protocol: what Converse cannot say is recorded', () => {
    const losses = new LossLog();
    const body = encode(
      {
        model: 'mistral.mistral-large-2407-v1:0',
        system: [{ type: 'text', text: 'Be brief.', cacheControl: { type: 'ephemeral', ttl: '5m' } }],
        messages: [
          { role: 'assistant', parts: [{ type: 'text', text: 'Hello! How can I help?' }] },
          {
            role: 'user',
            name: 'ann',
            parts: [
              { type: 'text', text: 'What is in these?' },
              {
                type: 'file',
                mediaType: 'image/*',
                source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' },
                detail: 'high',
              },
              {
                type: 'file',
                mediaType: 'image/png',
                source: { kind: 'url', url: 'https://example.com/a.png' },
              },
              { type: 'file', mediaType: 'application/pdf', source: { kind: 'file-id', fileId: 'file-abc' } },
              { type: 'file', mediaType: 'audio/wav', source: { kind: 'base64', data: 'UklGRg==' } },
              {
                type: 'file',
                mediaType: 'application/pdf',
                source: { kind: 'base64', data: 'JVBERi0=' },
                filename: 'Q3 report.final.pdf',
              },
              { type: 'file', mediaType: 'text/csv', source: { kind: 'base64', data: 'YSxi' } },
              { type: 'text', text: '   ' },
            ],
          },
          { role: 'system', parts: [{ type: 'text', text: 'Answer in French.' }] },
          {
            role: 'assistant',
            parts: [
              { type: 'reasoning', text: 'thinking', signature: { issuer: 'gemini', value: 'c2ln' } },
              { type: 'reasoning', text: 'plain thoughts' },
              {
                type: 'tool-call',
                id: 'call:1/a',
                name: 'lookup',
                arguments: '{"q":"x"}',
                signature: { issuer: 'gemini', value: 'c2ln' },
              },
              { type: 'tool-call', id: 'call_2', name: 'lookup', arguments: 'not json' },
            ],
          },
          {
            role: 'tool',
            parts: [
              { type: 'tool-result', toolCallId: 'call:1/a', content: [{ type: 'text', text: '{"a":1}' }] },
              { type: 'tool-result', toolCallId: 'call_2', content: [], isError: true },
            ],
          },
          ask('Thanks'),
        ],
        tools: [
          {
            type: 'function',
            name: 'lookup',
            parameters: { properties: { q: { type: 'string' } } },
            strict: true,
          },
          { type: 'provider', kind: 'web-search', protocol: 'openai-chat', value: {} },
        ],
        toolChoice: { type: 'required' },
        parallelToolCalls: false,
        temperature: 1.5,
        topP: 0.5,
        topK: 20,
        stop: ['', 'END'],
        seed: 7,
        frequencyPenalty: 0.1,
        presencePenalty: 0.2,
        user: 'u-1',
        responseFormat: { type: 'json-object' },
        reasoning: { effort: 'low' },
        extensions: { 'openai-chat': { logprobs: true } },
      },
      losses,
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "inferenceConfig": {
          "stopSequences": [
            "END",
          ],
          "temperature": 1,
          "topP": 0.5,
        },
        "messages": [
          {
            "content": [
              {
                "text": "What is in these?",
              },
              {
                "image": {
                  "format": "jpeg",
                  "source": {
                    "bytes": "/9j/4AAQ",
                  },
                },
              },
              {
                "document": {
                  "format": "pdf",
                  "name": "Q3 report-final",
                  "source": {
                    "bytes": "JVBERi0=",
                  },
                },
              },
              {
                "document": {
                  "format": "csv",
                  "name": "document-1",
                  "source": {
                    "bytes": "YSxi",
                  },
                },
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "reasoningContent": {
                  "reasoningText": {
                    "text": "plain thoughts",
                  },
                },
              },
              {
                "toolUse": {
                  "input": {
                    "q": "x",
                  },
                  "name": "lookup",
                  "toolUseId": "call_1_a",
                },
              },
              {
                "toolUse": {
                  "input": {},
                  "name": "lookup",
                  "toolUseId": "call_2",
                },
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "toolResult": {
                  "content": [
                    {
                      "text": "{"a":1}",
                    },
                  ],
                  "toolUseId": "call_1_a",
                },
              },
              {
                "toolResult": {
                  "content": [
                    {
                      "text": "",
                    },
                  ],
                  "status": "error",
                  "toolUseId": "call_2",
                },
              },
              {
                "text": "Thanks",
              },
            ],
            "role": "user",
          },
        ],
        "system": [
          {
            "text": "Be brief.",
          },
          {
            "cachePoint": {
              "ttl": "5m",
              "type": "default",
            },
          },
          {
            "text": "Answer in French.",
          },
        ],
        "toolConfig": {
          "toolChoice": {
            "any": {},
          },
          "tools": [
            {
              "toolSpec": {
                "inputSchema": {
                  "json": {
                    "properties": {
                      "q": {
                        "type": "string",
                      },
                    },
                    "type": "object",
                  },
                },
                "name": "lookup",
                "strict": true,
              },
            },
          ],
        },
      }
    `);
    expect(losses.losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "messages[0]",
          "reason": "a Converse conversation opens with a user turn",
        },
        {
          "kind": "dropped",
          "path": "messages[1].name",
          "reason": "Converse messages carry no participant name",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[1].detail",
          "reason": "Converse has no image detail setting",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[2]",
          "reason": "Converse reads files as bytes or S3 objects, not links",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[3]",
          "reason": "Converse cannot read another vendor’s uploaded-file id",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[4]",
          "reason": "Converse has no block for audio/wav",
        },
        {
          "kind": "coerced",
          "path": "messages[1].parts[5].filename",
          "reason": "document name Q3 report.final.pdf sent as Q3 report-final",
        },
        {
          "kind": "dropped",
          "path": "messages[1].parts[7]",
          "reason": "Converse refuses blank text blocks",
        },
        {
          "kind": "coerced",
          "path": "messages[2]",
          "reason": "Converse has no system message inside the conversation: moved to system",
        },
        {
          "kind": "dropped",
          "path": "messages[3].parts[0]",
          "reason": "reasoning issued by gemini cannot be sent to Bedrock",
        },
        {
          "kind": "coerced",
          "path": "messages[3].parts[2].id",
          "reason": "tool call id call:1/a sent as call_1_a",
        },
        {
          "kind": "dropped",
          "path": "messages[3].parts[2].signature",
          "reason": "a tool call signature of gemini cannot be sent to Bedrock",
        },
        {
          "kind": "coerced",
          "path": "messages[3].parts[3].arguments",
          "reason": "tool arguments are not a JSON object: sent as {}",
        },
        {
          "kind": "dropped",
          "path": "parallelToolCalls",
          "reason": "Converse has no setting for parallel tool calls",
        },
        {
          "kind": "dropped",
          "path": "tools[1]",
          "reason": "no Converse form for this openai-chat provider tool",
        },
        {
          "kind": "dropped",
          "path": "topK",
          "reason": "no top-k setting known for this Bedrock model",
        },
        {
          "kind": "dropped",
          "path": "reasoning",
          "reason": "no reasoning setting known for this Bedrock model",
        },
        {
          "kind": "coerced",
          "path": "temperature",
          "reason": "temperature 1.5 above Converse's maximum: 1",
        },
        {
          "kind": "dropped",
          "path": "stop[0]",
          "reason": "Converse refuses empty stop sequences",
        },
        {
          "kind": "dropped",
          "path": "responseFormat",
          "reason": "Converse has no JSON mode without a schema",
        },
        {
          "kind": "dropped",
          "path": "seed",
          "reason": "Converse has no seed",
        },
        {
          "kind": "dropped",
          "path": "frequencyPenalty",
          "reason": "Converse has no frequency penalty",
        },
        {
          "kind": "dropped",
          "path": "presencePenalty",
          "reason": "Converse has no presence penalty",
        },
        {
          "kind": "dropped",
          "path": "user",
          "reason": "Converse has no end-user id",
        },
        {
          "kind": "dropped",
          "path": "extensions.openai-chat.logprobs",
          "reason": "no Converse form for this openai-chat field",
        },
      ]
    `);
  });
});
