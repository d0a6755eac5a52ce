import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { convertOpenAIImagesUsage } from '../../../src/protocols/openai-images/convert-openai-images-usage.js';
import { decodeOpenAIImagesReply } from '../../../src/protocols/openai-images/decode-reply.js';
import { prepareOpenAIImagesPassthrough } from '../../../src/protocols/openai-images/passthrough.js';

/** What an OpenAI-protocol upstream of image generation gets and gives: the passthrough body and the reply read for billing. */

const gptImageUsage = {
  input_tokens: 50,
  input_tokens_details: { text_tokens: 40, image_tokens: 10 },
  output_tokens: 4160,
  total_tokens: 4210,
};

describe('prepareOpenAIImagesPassthrough', () => {
  it('the body as it is, less stream and partial_images, which are recorded', () => {
    const losses = new LossLog();
    const body = { model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 2, quality: 'low', n: 2 };
    expect(prepareOpenAIImagesPassthrough(body, { losses })).toEqual({
      model: 'gpt-image-1',
      prompt: 'x',
      quality: 'low',
      n: 2,
    });
    expect(losses.losses.map(({ path }) => path)).toEqual(['stream', 'partial_images']);
    expect(body.stream).toBe(true);
  });

  it('stream false is removed without a loss', () => {
    const losses = new LossLog();
    expect(prepareOpenAIImagesPassthrough({ prompt: 'x', stream: false }, { losses })).toEqual({
      prompt: 'x',
    });
    expect(losses.losses).toEqual([]);
  });
});

describe('decodeOpenAIImagesReply', () => {
  it('a GPT image reply: base64 images of the output format, and the token usage with its raw block', () => {
    const reply = decodeOpenAIImagesReply({
      created: 1_700_000_000,
      background: 'opaque',
      data: [{ b64_json: 'AAAA' }],
      output_format: 'webp',
      quality: 'high',
      size: '1024x1024',
      usage: gptImageUsage,
    });
    expect(reply).toEqual({
      created: 1_700_000_000,
      images: [{ data: { kind: 'base64', data: 'AAAA', mediaType: 'image/webp' } }],
      usage: {
        inputTokens: 50,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 4160,
        reasoningTokens: 0,
        webSearchCalls: 0,
        estimated: false,
        raw: gptImageUsage,
      },
    });
  });

  it('a dall-e-3 reply: links with revised prompts, no usage; entries without an image are none', () => {
    expect(
      decodeOpenAIImagesReply({
        created: 1,
        data: [{ url: 'https://example.com/a.png', revised_prompt: 'A fox' }, {}, null],
      }),
    ).toEqual({
      created: 1,
      images: [{ data: { kind: 'url', url: 'https://example.com/a.png' }, revisedPrompt: 'A fox' }],
    });
  });

  it('anything else is no image', () => {
    expect(decodeOpenAIImagesReply('oops')).toEqual({ images: [] });
    expect(decodeOpenAIImagesReply({ data: 'none', created: 'soon' })).toEqual({ images: [] });
  });
});

describe('convertOpenAIImagesUsage', () => {
  it('cached input tokens where reported', () => {
    const usage = convertOpenAIImagesUsage({
      input_tokens: 30,
      output_tokens: 100,
      input_tokens_details: { cached_tokens: 12 },
    });
    expect(usage).toMatchObject({ inputTokens: 30, cacheReadTokens: 12, outputTokens: 100 });
  });

  it.each([[undefined], [{}], [{ total_tokens: 5 }], [{ input_tokens: 'many' }], ['usage']])(
    'no counts is no usage: %j',
    (raw) => {
      expect(convertOpenAIImagesUsage(raw)).toBeUndefined();
    },
  );

  it('one count alone is usage, the other unknown', () => {
    expect(convertOpenAIImagesUsage({ output_tokens: 7 })).toMatchObject({
      inputTokens: undefined,
      outputTokens: 7,
    });
  });
});
