import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { codec, fixtureJson } from './helpers.js';

const decode = (body: Record<string, unknown>, losses = new LossLog()) =>
  codec.decodeRequest(body, { losses, model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', stream: false });

describe('bedrock converse request decoder, on recorded-shape requests', () => {
  it('request-claude-tools.json: every block kind, cache points on what they follow, Anthropic fields', () => {
    const losses = new LossLog();
    const request = decode(fixtureJson('request-claude-tools.json'), losses);
    expect(losses.losses).toEqual([]);
    expect(request).toMatchInlineSnapshot(`
      {
        "extensions": {
          "bedrock-converse": {
            "additionalModelRequestFields": {
              "anthropic_beta": [
                "interleaved-thinking-2025-05-14",
              ],
            },
            "body": {
              "guardrailConfig": {
                "guardrailIdentifier": "gr-travel",
                "guardrailVersion": "1",
                "trace": "enabled",
              },
              "requestMetadata": {
                "tenant": "acme",
              },
            },
          },
        },
        "maxOutputTokens": 4096,
        "messages": [
          {
            "parts": [
              {
                "text": "What is the weather in Kyoto, and what does this itinerary say?",
                "type": "text",
              },
              {
                "mediaType": "image/png",
                "source": {
                  "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
                  "kind": "base64",
                },
                "type": "file",
              },
              {
                "cacheControl": {
                  "ttl": "1h",
                  "type": "ephemeral",
                },
                "filename": "Itinerary (day 1)",
                "mediaType": "application/pdf",
                "source": {
                  "data": "JVBERi0xLjQKJcOkw7zDtsOfCg==",
                  "kind": "base64",
                },
                "type": "file",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "signature": {
                  "issuer": "anthropic",
                  "value": "ErcBCkgIBhABGAIiQLa1Dm8X0fUu3o1c0bWl2cmF0dXJlLWZyb20tY2xhdWRl",
                },
                "text": "The user wants the weather in Kyoto; I should call get_weather.",
                "type": "reasoning",
              },
              {
                "text": "Let me check the weather.",
                "type": "text",
              },
              {
                "arguments": "{"city":"Kyoto","unit":"celsius"}",
                "id": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
                "name": "get_weather",
                "type": "tool-call",
              },
            ],
            "role": "assistant",
          },
          {
            "parts": [
              {
                "content": [
                  {
                    "extensions": {
                      "bedrock-converse": {
                        "json": true,
                      },
                    },
                    "text": "{"temperature":18,"sky":"clear"}",
                    "type": "text",
                  },
                  {
                    "text": "Source: JMA",
                    "type": "text",
                  },
                ],
                "isError": false,
                "toolCallId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
                "type": "tool-result",
              },
            ],
            "role": "tool",
          },
        ],
        "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "reasoning": {
          "budgetTokens": 2048,
          "enabled": true,
        },
        "stop": [
          "

      Human:",
        ],
        "stream": false,
        "system": [
          {
            "cacheControl": {
              "type": "ephemeral",
            },
            "text": "You are a travel assistant. Answer in one sentence.",
            "type": "text",
          },
        ],
        "toolChoice": {
          "type": "auto",
        },
        "tools": [
          {
            "cacheControl": {
              "type": "ephemeral",
            },
            "description": "Current weather for a city.",
            "name": "get_weather",
            "parameters": {
              "properties": {
                "city": {
                  "type": "string",
                },
                "unit": {
                  "enum": [
                    "celsius",
                    "fahrenheit",
                  ],
                  "type": "string",
                },
              },
              "required": [
                "city",
              ],
              "type": "object",
            },
            "type": "function",
          },
        ],
      }
    `);
  });

  it('request-nova.json: S3 video, text document, unsigned reasoning, Nova fields, structured output', () => {
    const losses = new LossLog();
    const request = decode(fixtureJson('request-nova.json'), losses);
    expect(losses.losses).toEqual([]);
    expect(request).toMatchInlineSnapshot(`
      {
        "extensions": {
          "bedrock-converse": {
            "body": {
              "performanceConfig": {
                "latency": "standard",
              },
              "serviceTier": {
                "type": "flex",
              },
            },
          },
        },
        "maxOutputTokens": 512,
        "messages": [
          {
            "parts": [
              {
                "mediaType": "video/mp4",
                "source": {
                  "kind": "url",
                  "url": "s3://media-bucket/clips/harbour.mp4",
                },
                "type": "file",
              },
              {
                "filename": "notes",
                "mediaType": "text/markdown",
                "source": {
                  "data": "IyBIYXJib3VyCkJvYXRzIGF0IGRhd24u",
                  "kind": "base64",
                },
                "type": "file",
              },
              {
                "text": "Summarise the clip using the notes.",
                "type": "text",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "text": "The clip shows boats.",
                "type": "reasoning",
              },
              {
                "text": "Boats leave the harbour at dawn.",
                "type": "text",
              },
            ],
            "role": "assistant",
          },
          {
            "parts": [
              {
                "text": "Shorter, as JSON.",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "reasoning": {
          "effort": "low",
          "enabled": true,
        },
        "responseFormat": {
          "description": "A one-line summary.",
          "name": "summary",
          "schema": {
            "additionalProperties": false,
            "properties": {
              "summary": {
                "type": "string",
              },
            },
            "required": [
              "summary",
            ],
            "type": "object",
          },
          "type": "json-schema",
        },
        "stream": false,
        "system": [
          {
            "text": "Describe media precisely.",
            "type": "text",
          },
        ],
        "temperature": 0.3,
        "tools": [],
        "topK": 40,
        "topP": 0.9,
      }
    `);
  });
});
