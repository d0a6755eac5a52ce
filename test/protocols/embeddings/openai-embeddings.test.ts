import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../../../src/ir/embedding.js';
import { LossLog } from '../../../src/ir/loss.js';
import { InvalidRequestError } from '../../../src/protocols/invalid-request-error.js';
import { decodeOpenAIEmbeddingsReply } from '../../../src/protocols/openai-embeddings/decode-reply.js';
import { decodeOpenAIEmbeddingsRequest } from '../../../src/protocols/openai-embeddings/decode-request.js';
import { encodeOpenAIEmbeddingsReply } from '../../../src/protocols/openai-embeddings/encode-reply.js';
import { encodeOpenAIEmbeddingsRequest } from '../../../src/protocols/openai-embeddings/encode-request.js';
import { estimateOpenAIEmbeddingsInputTokens } from '../../../src/protocols/openai-embeddings/estimate-input-tokens.js';

/** The OpenAI embeddings codec (https://platform.openai.com/docs/api-reference/embeddings). */

const decode = (body: Record<string, unknown>, losses = new LossLog()) =>
  decodeOpenAIEmbeddingsRequest(body, { losses });

function request(fields: Partial<EmbeddingRequest>): EmbeddingRequest {
  return { model: 'text-embedding-3-small', inputs: [], dimensions: undefined, user: undefined, ...fields };
}

describe('decodeOpenAIEmbeddingsRequest', () => {
  it('takes the four input shapes', () => {
    expect(decode({ model: 'm', input: 'Paris' }).request.inputs).toEqual([{ type: 'text', text: 'Paris' }]);
    expect(decode({ model: 'm', input: ['Paris', 'Rome'] }).request.inputs).toEqual([
      { type: 'text', text: 'Paris' },
      { type: 'text', text: 'Rome' },
    ]);
    expect(decode({ model: 'm', input: [1, 2, 3] }).request.inputs).toEqual([
      { type: 'tokens', tokens: [1, 2, 3] },
    ]);
    expect(decode({ model: 'm', input: [[1, 2], [3]] }).request.inputs).toEqual([
      { type: 'tokens', tokens: [1, 2] },
      { type: 'tokens', tokens: [3] },
    ]);
  });

  it('reads dimensions, user and the encoding the reply is written in', () => {
    const decoded = decode({
      model: 'm',
      input: 'x',
      dimensions: 256,
      user: 'u-1',
      encoding_format: 'base64',
    });
    expect(decoded).toEqual({
      request: { model: 'm', inputs: [{ type: 'text', text: 'x' }], dimensions: 256, user: 'u-1' },
      encodingFormat: 'base64',
    });
    expect(decode({ model: 'm', input: 'x', dimensions: null }).encodingFormat).toBe('float');
    expect(decode({ model: 'm', input: 'x', dimensions: null }).request.dimensions).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an empty string', { input: '' }, 'input must not hold an empty string'],
    ['an empty string in a list', { input: ['a', ''] }, 'input must not hold an empty string'],
    ['an empty list', { input: [] }, 'input must not be empty'],
    ['texts and token ids mixed', { input: ['a', 1] }, 'input must be a string, an array of strings'],
    ['a negative token id', { input: [1, -2] }, 'input must be a string, an array of strings'],
    ['an empty token array', { input: [[1], []] }, 'input must be a string, an array of strings'],
    ['an object', { input: { text: 'a' } }, 'input must be a string, an array of strings'],
    ['dimensions 0', { input: 'a', dimensions: 0 }, 'dimensions must be a positive integer'],
    ['fractional dimensions', { input: 'a', dimensions: 2.5 }, 'dimensions must be a positive integer'],
    [
      'another encoding',
      { input: 'a', encoding_format: 'md5' },
      "encoding_format must be 'float' or 'base64'",
    ],
    ['a user that is no string', { input: 'a', user: 7 }, 'user must be a string'],
  ])('refuses %s', (_case, body, message) => {
    expect(() => decode({ model: 'm', ...body })).toThrow(InvalidRequestError);
    expect(() => decode({ model: 'm', ...body })).toThrow(message);
  });

  it('records the members it has no place for', () => {
    const losses = new LossLog();
    decode({ model: 'm', input: 'a', input_type: 'query', truncate: 'END' }, losses);
    expect(losses.losses).toEqual([
      { path: 'input_type', kind: 'dropped', reason: 'not an OpenAI embeddings request member' },
      { path: 'truncate', kind: 'dropped', reason: 'not an OpenAI embeddings request member' },
    ]);
  });
});

describe('encodeOpenAIEmbeddingsRequest', () => {
  it('one text as a string, floats asked for, dimensions and user kept', () => {
    const losses = new LossLog();
    const body = encodeOpenAIEmbeddingsRequest(
      request({ inputs: [{ type: 'text', text: 'Paris' }], dimensions: 64, user: 'u-1' }),
      { losses },
    );
    expect(body).toEqual({
      model: 'text-embedding-3-small',
      input: 'Paris',
      encoding_format: 'float',
      dimensions: 64,
      user: 'u-1',
    });
    expect(losses.losses).toEqual([]);
  });

  it('several texts as an array, token arrays as they are', () => {
    const losses = new LossLog();
    const texts = request({
      inputs: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    });
    expect(encodeOpenAIEmbeddingsRequest(texts, { losses }).input).toEqual(['a', 'b']);
    const one = request({ inputs: [{ type: 'tokens', tokens: [1, 2] }] });
    expect(encodeOpenAIEmbeddingsRequest(one, { losses }).input).toEqual([1, 2]);
    const two = request({
      inputs: [
        { type: 'tokens', tokens: [1] },
        { type: 'tokens', tokens: [2] },
      ],
    });
    expect(encodeOpenAIEmbeddingsRequest(two, { losses }).input).toEqual([[1], [2]]);
  });

  it('drops the task type and title, recording both', () => {
    const losses = new LossLog();
    const body = encodeOpenAIEmbeddingsRequest(
      request({ inputs: [{ type: 'text', text: 'a', taskType: 'RETRIEVAL_DOCUMENT', title: 'T' }] }),
      { losses },
    );
    expect(body).toEqual({ model: 'text-embedding-3-small', input: 'a', encoding_format: 'float' });
    expect(losses.losses.map((loss) => [loss.path, loss.kind])).toEqual([
      ['inputs[0].taskType', 'dropped'],
      ['inputs[0].title', 'dropped'],
    ]);
  });

  it('cannot mix texts and token ids in one input', () => {
    const mixed = request({
      inputs: [
        { type: 'text', text: 'a' },
        { type: 'tokens', tokens: [1] },
      ],
    });
    expect(() => encodeOpenAIEmbeddingsRequest(mixed, { losses: new LossLog() })).toThrow(
      InvalidRequestError,
    );
  });

  it('round trip: decode(encode(decode(x))) equals decode(x)', () => {
    for (const input of ['Paris', ['Paris', 'Rome'], [5, 6], [[5], [6, 7]]]) {
      const first = decode({ model: 'm', input, dimensions: 32, user: 'u' }).request;
      const again = decode(encodeOpenAIEmbeddingsRequest(first, { losses: new LossLog() })).request;
      expect(again).toEqual(first);
    }
  });
});

describe('decodeOpenAIEmbeddingsReply', () => {
  it('orders the vectors by index, reads base64 items, takes prompt_tokens as input', () => {
    const base64 = Buffer.from(new Float32Array([0.5, -1]).buffer).toString('base64');
    const usage = { prompt_tokens: 12, total_tokens: 12 };
    const reply = decodeOpenAIEmbeddingsReply({
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: base64 },
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
      ],
      model: 'text-embedding-3-small',
      usage,
    });
    expect(reply.vectors).toEqual([
      [0.1, 0.2],
      [0.5, -1],
    ]);
    expect(reply.usage).toMatchObject({ inputTokens: 12, outputTokens: 0, estimated: false, raw: usage });
  });

  it('tolerates what it cannot read: no usage, an item without a vector or an index', () => {
    const reply = decodeOpenAIEmbeddingsReply({
      data: [{ embedding: [1] }, { index: 1, embedding: null }, {}],
    });
    expect(reply.vectors).toEqual([[1], [], []]);
    expect(reply.usage).toBeUndefined();
    expect(decodeOpenAIEmbeddingsReply({ data: [], usage: { total_tokens: 3 } }).usage).toBeUndefined();
  });

  it('a reply without data is unusable', () => {
    expect(() => decodeOpenAIEmbeddingsReply({ object: 'list' })).toThrow('no data array');
    expect(() => decodeOpenAIEmbeddingsReply('oops')).toThrow('no data array');
  });
});

describe('encodeOpenAIEmbeddingsReply', () => {
  const reply = { vectors: [[0.1, 0.2], [0.3]], usage: undefined };

  it('floats, the client model, the billed count as usage', () => {
    expect(encodeOpenAIEmbeddingsReply(reply, { model: 'my-model', encodingFormat: 'float', inputTokens: 5 }))
      .toMatchInlineSnapshot(`
      {
        "data": [
          {
            "embedding": [
              0.1,
              0.2,
            ],
            "index": 0,
            "object": "embedding",
          },
          {
            "embedding": [
              0.3,
            ],
            "index": 1,
            "object": "embedding",
          },
        ],
        "model": "my-model",
        "object": "list",
        "usage": {
          "prompt_tokens": 5,
          "total_tokens": 5,
        },
      }
    `);
  });

  it('base64: float32 little-endian of each vector', () => {
    const body = encodeOpenAIEmbeddingsReply(reply, { model: 'm', encodingFormat: 'base64', inputTokens: 5 });
    const data = body.data as { embedding: string }[];
    expect(data.map((item) => item.embedding)).toEqual([
      Buffer.from(new Float32Array([0.1, 0.2]).buffer).toString('base64'),
      Buffer.from(new Float32Array([0.3]).buffer).toString('base64'),
    ]);
  });
});

describe('estimateOpenAIEmbeddingsInputTokens', () => {
  it('texts by the tokenizer, token ids one each, anything else nothing', () => {
    expect(estimateOpenAIEmbeddingsInputTokens('hello world')).toBe(2);
    expect(estimateOpenAIEmbeddingsInputTokens(['hello', 'world'])).toBe(2);
    expect(estimateOpenAIEmbeddingsInputTokens([7, 8, 9])).toBe(3);
    expect(estimateOpenAIEmbeddingsInputTokens([[7, 8], [9], ['x']])).toBe(3);
    expect(estimateOpenAIEmbeddingsInputTokens({ text: 'hello' })).toBe(0);
    expect(estimateOpenAIEmbeddingsInputTokens(undefined)).toBe(0);
  });
});
