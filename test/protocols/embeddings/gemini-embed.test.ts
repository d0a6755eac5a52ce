import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../../../src/ir/embedding.js';
import { LossLog } from '../../../src/ir/loss.js';
import { decodeGeminiEmbedReply } from '../../../src/protocols/gemini/decode-embed-reply.js';
import {
  decodeGeminiBatchEmbedContentsRequest,
  decodeGeminiEmbedContentRequest,
} from '../../../src/protocols/gemini/decode-embed-request.js';
import {
  encodeGeminiBatchEmbedContentsReply,
  encodeGeminiEmbedContentReply,
} from '../../../src/protocols/gemini/encode-embed-reply.js';
import { encodeGeminiBatchEmbedContentsRequest } from '../../../src/protocols/gemini/encode-embed-request.js';
import {
  estimateGeminiBatchEmbedContentsTokens,
  estimateGeminiEmbedContentTokens,
} from '../../../src/protocols/gemini/estimate-embed-input-tokens.js';
import { prepareGeminiEmbedPassthrough } from '../../../src/protocols/gemini/passthrough-embed-request.js';
import { InvalidRequestError } from '../../../src/protocols/invalid-request-error.js';

/** Gemini's embedding codec (https://ai.google.dev/api/embeddings). */

const text = (value: string) => ({ parts: [{ text: value }] });

function request(fields: Partial<EmbeddingRequest>): EmbeddingRequest {
  return { model: 'gemini-embedding-001', inputs: [], dimensions: undefined, user: undefined, ...fields };
}

describe('decodeGeminiEmbedContentRequest', () => {
  it('one text input with its task type and title, and the dimensions', () => {
    const losses = new LossLog();
    const decoded = decodeGeminiEmbedContentRequest(
      {
        model: 'models/gemini-embedding-001',
        content: { role: 'user', parts: [{ text: 'Paris' }] },
        taskType: 'RETRIEVAL_DOCUMENT',
        title: 'Capitals',
        outputDimensionality: 256,
      },
      { losses },
    );
    expect(decoded).toEqual({
      model: '',
      inputs: [{ type: 'text', text: 'Paris', taskType: 'RETRIEVAL_DOCUMENT', title: 'Capitals' }],
      dimensions: 256,
      user: undefined,
    });
    expect(losses.losses).toEqual([]);
  });

  it('joins several text parts into one text, one line each, and records it', () => {
    const losses = new LossLog();
    const decoded = decodeGeminiEmbedContentRequest(
      { content: { parts: [{ text: 'Paris' }, { text: 'Rome' }] } },
      { losses },
    );
    expect(decoded.inputs).toEqual([{ type: 'text', text: 'Paris\nRome' }]);
    expect(losses.losses).toEqual([
      {
        path: 'content.parts',
        kind: 'coerced',
        reason: 'several text parts joined into one text, one line each',
      },
    ]);
  });

  it('records members it has no place for, in the request, the content and the parts', () => {
    const losses = new LossLog();
    decodeGeminiEmbedContentRequest(
      { content: { parts: [{ text: 'a', thought: true }], extra: 1 }, autoTruncate: true },
      { losses },
    );
    expect(losses.losses.map((loss) => `${loss.kind} ${loss.path}`)).toEqual([
      'dropped autoTruncate',
      'dropped content.extra',
      'dropped content.parts[0].thought',
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no content', { taskType: 'CLUSTERING' }, 'content is required'],
    ['a content that is no object', { content: 'Paris' }, 'content must be an object'],
    ['no parts', { content: { parts: [] } }, 'content.parts must hold at least one text part'],
    [
      'a part that is not text',
      { content: { parts: [{ inlineData: { mimeType: 'image/png', data: '' } }] } },
      'content.parts[0] is not text',
    ],
    ['a task type that is no string', { content: text('a'), taskType: 3 }, 'taskType must be a string'],
    [
      'dimensions 0',
      { content: text('a'), outputDimensionality: 0 },
      'outputDimensionality must be a positive',
    ],
  ])('refuses %s', (_case, body, message) => {
    const decode = () => decodeGeminiEmbedContentRequest(body, { losses: new LossLog() });
    expect(decode).toThrow(InvalidRequestError);
    expect(decode).toThrow(message);
  });
});

describe('decodeGeminiBatchEmbedContentsRequest', () => {
  it('one input per request, in order; the shared dimensions', () => {
    const decoded = decodeGeminiBatchEmbedContentsRequest(
      {
        requests: [
          { model: 'models/m', content: text('Paris'), taskType: 'RETRIEVAL_QUERY', outputDimensionality: 8 },
          { model: 'models/m', content: text('Rome'), outputDimensionality: 8 },
        ],
      },
      { losses: new LossLog() },
    );
    expect(decoded.inputs).toEqual([
      { type: 'text', text: 'Paris', taskType: 'RETRIEVAL_QUERY' },
      { type: 'text', text: 'Rome' },
    ]);
    expect(decoded.dimensions).toBe(8);
  });

  it('names the item of a refusal', () => {
    const body = { requests: [{ content: text('a') }, { content: { parts: [{ fileData: {} }] } }] };
    expect(() => decodeGeminiBatchEmbedContentsRequest(body, { losses: new LossLog() })).toThrow(
      'requests[1].content.parts[0] is not text',
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['requests that are no array', { requests: {} }, 'requests must be an array'],
    ['no requests', { requests: [] }, 'requests must not be empty'],
    ['an item that is no object', { requests: ['Paris'] }, 'requests[0] must be an object'],
    [
      'items asking for different dimensions',
      { requests: [{ content: text('a'), outputDimensionality: 8 }, { content: text('b') }] },
      'requests ask for different outputDimensionality values',
    ],
  ])('refuses %s', (_case, body, message) => {
    expect(() => decodeGeminiBatchEmbedContentsRequest(body, { losses: new LossLog() })).toThrow(message);
  });
});

describe('encodeGeminiBatchEmbedContentsRequest', () => {
  it('one request per input, each naming models/{model}, with its hints and the dimensions', () => {
    const losses = new LossLog();
    const body = encodeGeminiBatchEmbedContentsRequest(
      request({
        inputs: [
          { type: 'text', text: 'Paris', taskType: 'RETRIEVAL_DOCUMENT', title: 'Capitals' },
          { type: 'text', text: 'Rome' },
        ],
        dimensions: 64,
      }),
      { losses },
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "requests": [
          {
            "content": {
              "parts": [
                {
                  "text": "Paris",
                },
              ],
            },
            "model": "models/gemini-embedding-001",
            "outputDimensionality": 64,
            "taskType": "RETRIEVAL_DOCUMENT",
            "title": "Capitals",
          },
          {
            "content": {
              "parts": [
                {
                  "text": "Rome",
                },
              ],
            },
            "model": "models/gemini-embedding-001",
            "outputDimensionality": 64,
          },
        ],
      }
    `);
    expect(losses.losses).toEqual([]);
  });

  it('drops the end-user id, recording it; a model named with its collection stays as it is', () => {
    const losses = new LossLog();
    const body = encodeGeminiBatchEmbedContentsRequest(
      request({ model: 'tunedModels/mine', inputs: [{ type: 'text', text: 'a' }], user: 'u-1' }),
      { losses },
    );
    expect(body).toEqual({ requests: [{ model: 'tunedModels/mine', content: { parts: [{ text: 'a' }] } }] });
    expect(losses.losses).toEqual([
      { path: 'user', kind: 'dropped', reason: 'Gemini embedding requests carry no end-user id' },
    ]);
  });

  it('refuses token ids: Gemini embeds text only, and ids of an OpenAI tokenizer mean nothing to it', () => {
    const tokens = request({ inputs: [{ type: 'tokens', tokens: [1, 2, 3] }] });
    const encode = () => encodeGeminiBatchEmbedContentsRequest(tokens, { losses: new LossLog() });
    expect(encode).toThrow(InvalidRequestError);
    expect(encode).toThrow('input holds token ids, and a Gemini upstream embeds text only');
  });

  it('round trip: decode(encode(decode(x))) equals decode(x)', () => {
    const body = {
      requests: [
        {
          model: 'models/m',
          content: text('Paris'),
          taskType: 'RETRIEVAL_DOCUMENT',
          title: 'T',
          outputDimensionality: 4,
        },
        { model: 'models/m', content: text('Rome'), outputDimensionality: 4 },
      ],
    };
    const first = decodeGeminiBatchEmbedContentsRequest(body, { losses: new LossLog() });
    const encoded = encodeGeminiBatchEmbedContentsRequest(
      { ...first, model: 'm' },
      { losses: new LossLog() },
    );
    const again = decodeGeminiBatchEmbedContentsRequest(encoded, { losses: new LossLog() });
    expect(again).toEqual(first);
  });
});

describe('Gemini embedding replies', () => {
  it('decodes either method, without usage', () => {
    expect(decodeGeminiEmbedReply({ embedding: { values: [0.1, 0.2] } })).toEqual({
      vectors: [[0.1, 0.2]],
      usage: undefined,
    });
    expect(decodeGeminiEmbedReply({ embeddings: [{ values: [1] }, { values: 'x' }, null] })).toEqual({
      vectors: [[1], [], []],
      usage: undefined,
    });
  });

  it('a reply with neither member is unusable', () => {
    expect(() => decodeGeminiEmbedReply({ error: {} })).toThrow('neither embedding nor embeddings');
  });

  it('encodes the one vector, or every vector in order', () => {
    const reply = { vectors: [[0.1], [0.2, 0.3]], usage: undefined };
    expect(encodeGeminiEmbedContentReply(reply)).toEqual({ embedding: { values: [0.1] } });
    expect(encodeGeminiBatchEmbedContentsReply(reply)).toEqual({
      embeddings: [{ values: [0.1] }, { values: [0.2, 0.3] }],
    });
  });
});

describe('prepareGeminiEmbedPassthrough', () => {
  it('maps every model the body names, leaving the rest and the client body as they are', () => {
    const body = {
      requests: [{ model: 'models/public', content: text('a'), taskType: 'CLUSTERING' }, 'junk'],
      extra: true,
    };
    const prepared = prepareGeminiEmbedPassthrough(body, { upstreamModel: 'gemini-embedding-001' });
    expect(prepared).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: text('a'), taskType: 'CLUSTERING' },
        'junk',
      ],
      extra: true,
    });
    expect(body.requests[0]).toMatchObject({ model: 'models/public' });
    expect(prepareGeminiEmbedPassthrough({ content: text('a') }, { upstreamModel: 'x' })).toEqual({
      content: text('a'),
    });
    expect(prepareGeminiEmbedPassthrough({ model: 'p', content: text('a') }, { upstreamModel: 'x' })).toEqual(
      {
        model: 'models/x',
        content: text('a'),
      },
    );
  });
});

describe('estimating the input tokens', () => {
  it('text parts and titles, leniently', () => {
    expect(
      estimateGeminiEmbedContentTokens({ content: { parts: [{ text: 'hello' }, { text: 'world' }] } }),
    ).toBe(2);
    expect(estimateGeminiEmbedContentTokens({ content: text('hello'), title: 'world' })).toBe(2);
    expect(estimateGeminiEmbedContentTokens({ content: { parts: [{ inlineData: {} }] } })).toBe(0);
    expect(estimateGeminiEmbedContentTokens('junk')).toBe(0);
    expect(
      estimateGeminiBatchEmbedContentsTokens({
        requests: [{ content: text('hello') }, { content: text('world') }, 3],
      }),
    ).toBe(2);
  });
});
